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
