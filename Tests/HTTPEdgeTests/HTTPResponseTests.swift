import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Testing

/// An answer goes back in the request's format: cookies as 2.0's `cookies` or 1.0's
/// `multiValueHeaders`.
struct HTTPResponseTests {
    static let answer = HTTPResponse(
        statusCode: 302, headers: ["location": "/next"], cookies: ["a=1; HttpOnly", "b=2; Secure"], body: "")

    @Test func payload2() throws {
        let json = try JSONValue(parsing: Self.answer.serialized(for: .v2))
        #expect(json["statusCode"] == 302)
        #expect(json["headers"]?["location"] == "/next")
        #expect(json["cookies"] == ["a=1; HttpOnly", "b=2; Secure"])
        #expect(json["multiValueHeaders"] == nil)
    }

    @Test func payload1() throws {
        let json = try JSONValue(parsing: Self.answer.serialized(for: .v1))
        #expect(json["statusCode"] == 302)
        #expect(json["headers"]?["location"] == "/next")
        #expect(json["multiValueHeaders"]?["Set-Cookie"] == ["a=1; HttpOnly", "b=2; Secure"])
        #expect(json["cookies"] == nil)
    }

    @Test func theErrorEnvelope() throws {
        let answer = HTTPResponse.error(429, code: "rate_limited", message: "Slow down.", headers: ["retry-after": "9"])
        #expect(answer.headers["cache-control"] == "no-store")
        #expect(answer.headers["retry-after"] == "9")
        let body = try JSONValue(parsing: Array(try #require(answer.body).utf8))
        #expect(body == ["error": "rate_limited", "message": "Slow down."])
    }
}

/// A link page's `form-action` names where its button's POST will be redirected.
struct LinkPageFormTargetTests {
    @Test func formTargetsBecomeTheirOriginsOrSchemes() {
        let policy = HTMLPage.headers(
            formTargets: [
                "https://Shop.example/welcome?x=1", "http://127.0.0.1:3001/", "gatehouse-demo://auth/callback",
            ]
        )["content-security-policy"]
        #expect(
            policy?.contains("form-action 'self' https://shop.example http://127.0.0.1:3001 gatehouse-demo:;") == true)
        #expect(HTMLPage.headers["content-security-policy"]?.contains("form-action 'self';") == true)
    }

    @Test func whatIsNotPlainlyAnOriginIsLeftOut() {
        for target in ["javascript:alert(1)", "https://a.example;script-src *", "https://", "://x", "ht tp://x"] {
            #expect(HTMLPage.formSource(target) == nil, "\(target)")
        }
    }
}
