import Emulator
import Foundation
import GatehouseJSON
import Testing

/// `gatehouse start-api` serving REST API (`Api`) routes and an HTTP API route set to payload
/// 1.0: the 1.0 event, the 1.0 response mapping, REST's own statuses, and TOKEN and REQUEST
/// authorizers answering with IAM policies.
@Suite(.serialized)
struct StartAPIRESTTests {
    let cli = GatehouseCLI()
    static let template = GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Fixtures/rest-template.json").path

    func json(_ bytes: [UInt8]) throws -> JSONValue { try JSONValue(parsing: bytes) }

    /// The echoed event: the test function answers with it as the body of a 200.
    func echoed(_ answer: (status: Int, headers: [(String, String)], body: [UInt8])) throws -> JSONValue {
        #expect(answer.status == 200)
        return try json(answer.body)
    }

    @Test func restRequestsBecomePayload1Events() async throws {
        let api = try await LocalAPI(template: Self.template, cli: cli)
        defer { api.process.kill(SIGINT) }
        let event = try echoed(
            try await api.request(
                "GET", "/items/42%20b?tag=a&tag=b&q=x+y",
                headers: [("X-Multi", "one"), ("X-Multi", "two"), ("Cookie", "a=1; b=2"), ("User-Agent", "tests")]))
        #expect(event["version"] == nil)
        #expect(event["resource"] == "/items/{id}")
        #expect(event["path"] == "/items/42%20b")
        #expect(event["httpMethod"] == "GET")
        // Names as sent; `headers` keeps the last value, `multiValueHeaders` every one.
        #expect(event["headers"]?["X-Multi"] == "two")
        #expect(event["multiValueHeaders"]?["X-Multi"] == ["one", "two"])
        #expect(event["headers"]?["Cookie"] == "a=1; b=2")
        #expect(event["queryStringParameters"] == ["tag": "b", "q": "x y"])
        #expect(event["multiValueQueryStringParameters"] == ["tag": ["a", "b"], "q": ["x y"]])
        #expect(event["pathParameters"] == ["id": "42 b"])
        #expect(event["stageVariables"] == .null)
        #expect(event["body"] == .null)
        #expect(event["isBase64Encoded"] == false)
        let context = try #require(event["requestContext"])
        #expect(context["stage"] == "dev")
        #expect(context["path"] == "/dev/items/42%20b")
        #expect(context["resourcePath"] == "/items/{id}")
        #expect(context["httpMethod"] == "GET")
        #expect(context["identity"]?["userAgent"] == "tests")
        #expect(context["identity"]?["sourceIp"] == "127.0.0.1")
        #expect(context["requestTimeEpoch"]?.numberValue != nil)

        // Only the API's BinaryMediaTypes are base64-encoded; other bodies pass as text.
        let png = try echoed(
            try await api.request("PUT", "/files/a/b.png", headers: [("Content-Type", "image/png")], body: [0, 255, 1]))
        #expect(png["pathParameters"] == ["proxy": "a/b.png"])
        #expect(png["isBase64Encoded"] == true)
        #expect(png["body"] == .string(Data([0, 255, 1]).base64EncodedString()))
        let octets = try echoed(
            try await api.request(
                "POST", "/files/x", headers: [("Content-Type", "application/octet-stream")], body: Array("abc".utf8)))
        #expect(octets["isBase64Encoded"] == false)
        #expect(octets["body"] == "abc")

        // No route: REST's 403.
        let missing = try await api.request("GET", "/nothing")
        #expect(missing.status == 403)
        #expect(try json(missing.body) == ["message": "Missing Authentication Token"])
        #expect(try await api.request("DELETE", "/items/1").status == 403)
        _ = await api.stop()
    }

    @Test func restAnswersMapToResponsesAndFailuresAre502() async throws {
        let api = try await LocalAPI(template: Self.template, cli: cli)
        defer { api.process.kill(SIGINT) }
        func respond(_ answer: String) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
            try await api.request(
                "POST", "/respond?action=respond", headers: [("Content-Type", "application/json")],
                body: Array(answer.utf8))
        }
        let full = try await respond(
            #"{"statusCode":201,"headers":{"X-One":"1","X-Both":"single"},"multiValueHeaders":{"Set-Cookie":["s=1","t=2"],"X-Both":["m1","m2"]},"body":"made"}"#
        )
        #expect(full.status == 201)
        #expect(full.headers.contains { $0 == ("x-one", "1") })
        #expect(full.headers.filter { $0.0 == "set-cookie" }.map(\.1) == ["s=1", "t=2"])
        // A name in both: the multi-value list wins.
        #expect(full.headers.filter { $0.0 == "x-both" }.map(\.1) == ["m1", "m2"])
        #expect(full.headers.contains { $0 == ("content-type", "application/json") })
        #expect(String(decoding: full.body, as: UTF8.self) == "made")
        let binary = try await respond(#"{"statusCode":200,"isBase64Encoded":true,"body":"AP8B"}"#)
        #expect(binary.body == [0, 255, 1])

        // REST wants a proxy response: no statusCode, a stray member or a bad type is a 502.
        for malformed in [
            #"{"hello":"world"}"#, #"{"statusCode":200,"cookies":["a=1"]}"#, #"{"statusCode":200,"body":5}"#,
            #"{"statusCode":200,"multiValueHeaders":{"a":"b"}}"#,
        ] {
            let answer = try await respond(malformed)
            #expect(answer.status == 502, "\(malformed)")
            #expect(try json(answer.body) == ["message": "Internal server error"])
        }
        for action in ["error", "crash"] {
            let answer = try await api.request("GET", "/items/1?action=\(action)")
            #expect(answer.status == 502, "\(action)")
        }
        _ = await api.stop()
    }

    /// TOKEN and REQUEST authorizers: 401 before the authorizer for a missing or invalid token,
    /// IAM policies judged per method ARN (a cached policy for one route refuses another), the
    /// context beside principalId, and REST's statuses for deny, Unauthorized and failure.
    @Test func tokenAndRequestAuthorizersAnswerWithPolicies() async throws {
        let api = try await LocalAPI(template: Self.template, cli: cli)
        defer { api.process.kill(SIGINT) }
        #expect(try await api.request("GET", "/private").status == 401)
        // Fails the ValidationExpression: 401 without running the authorizer.
        let invalid = try await api.request("GET", "/private", headers: [("Authorization", "Bearer x")])
        #expect(invalid.status == 401)
        #expect(try json(invalid.body) == ["message": "Unauthorized"])
        #expect(try await api.authorizerRuns(reaching: 0) == 0)

        let allowed = try echoed(try await api.request("GET", "/private", headers: [("Authorization", "allow:ada")]))
        #expect(
            allowed["requestContext"]?["authorizer"]
                == ["principalId": "ada", "userId": "ada", "admin": false, "level": 3, "integrationLatency": 0])
        // The policy covers the whole stage: another route is allowed from the cache.
        #expect(try await api.request("GET", "/other", headers: [("Authorization", "allow:ada")]).status == 200)
        #expect(try await api.authorizerRuns(reaching: 1) == 1)

        // A policy for /private only: /other is refused by the same cached policy.
        #expect(try await api.request("GET", "/private", headers: [("Authorization", "scoped:bob")]).status == 200)
        let elsewhere = try await api.request("GET", "/other", headers: [("Authorization", "scoped:bob")])
        #expect(elsewhere.status == 403)
        #expect(try json(elsewhere.body) == ["Message": "User is not authorized to access this resource"])
        #expect(try await api.authorizerRuns(reaching: 2) == 2)

        let denied = try await api.request("GET", "/private", headers: [("Authorization", "deny")])
        #expect(denied.status == 403)
        #expect(
            try json(denied.body) == ["Message": "User is not authorized to access this resource with an explicit deny"]
        )
        let unauthorized = try await api.request("GET", "/private", headers: [("Authorization", "unauthorized")])
        #expect(unauthorized.status == 401)
        #expect(try json(unauthorized.body) == ["message": "Unauthorized"])
        for identity in ["garbage", "fail"] {
            let broken = try await api.request("GET", "/private", headers: [("Authorization", identity)])
            #expect(broken.status == 500, "\(identity)")
            #expect(try json(broken.body) == ["message": .null])
        }
        #expect(try await api.authorizerRuns(reaching: 6) == 6)

        // REQUEST authorizer with ReauthorizeEvery 0: it runs every time and sees the headers.
        for _ in 0..<2 {
            let keyed = try echoed(try await api.request("GET", "/keyed", headers: [("X-Key", "allow:cy")]))
            #expect(keyed["requestContext"]?["authorizer"]?["principalId"] == "cy")
        }
        #expect(try await api.authorizerRuns(reaching: 8) == 8)
        #expect(try await api.request("GET", "/keyed").status == 401)
        _ = await api.stop()
    }

    /// An HTTP API route with PayloadFormatVersion 1.0: the 1.0 event with lower-cased header
    /// names and a `version`, answered by the 1.0 rules with HTTP API statuses.
    @Test func anHTTPAPIRouteCanUsePayload1() async throws {
        let api = try await LocalAPI(template: StartAPITests.template, cli: cli)
        defer { api.process.kill(SIGINT) }
        let event = try echoed(
            try await api.request("GET", "/v1/items/7?a=1&a=2", headers: [("X-Multi", "one"), ("X-Multi", "two")]))
        #expect(event["version"] == "1.0")
        #expect(event["resource"] == "/v1/items/{id}")
        #expect(event["headers"]?["x-multi"] == "two")
        #expect(event["multiValueHeaders"]?["x-multi"] == ["one", "two"])
        #expect(event["multiValueQueryStringParameters"] == ["a": ["1", "2"]])
        #expect(event["pathParameters"] == ["id": "7"])
        #expect(event["requestContext"]?["stage"] == "$default")
        let failed = try await api.request("GET", "/v1/items/7?action=error")
        #expect(failed.status == 500)
        #expect(try json(failed.body) == ["message": "Internal Server Error"])
        _ = await api.stop()
    }

    /// CORS: API Gateway answers preflights itself (the function is not run); an HTTP API also
    /// puts its CORS headers on actual responses, for allowed origins only.
    @Test func corsPreflightsAndResponses() async throws {
        let http = try await LocalAPI(template: StartAPITests.template, cli: cli)
        defer { http.process.kill(SIGINT) }
        let preflight = try await http.request(
            "OPTIONS", "/items/1",
            headers: [
                ("Origin", "https://app.example.com"), ("Access-Control-Request-Method", "GET"),
                ("Access-Control-Request-Headers", "authorization"),
            ])
        #expect(preflight.status == 204)
        let headers = Dictionary(preflight.headers, uniquingKeysWith: { first, _ in first })
        #expect(headers["access-control-allow-origin"] == "https://app.example.com")
        #expect(headers["access-control-allow-methods"] == "GET,POST")
        #expect(headers["access-control-allow-headers"] == "authorization,content-type")
        #expect(headers["access-control-max-age"] == "600")
        #expect(headers["access-control-allow-credentials"] == "true")
        #expect(http.routeProcesses().isEmpty)
        // Another origin: no CORS headers, on the preflight or the request.
        let stranger = try await http.request(
            "OPTIONS", "/items/1",
            headers: [("Origin", "https://evil.example"), ("Access-Control-Request-Method", "GET")])
        #expect(stranger.status == 204)
        #expect(!stranger.headers.contains { $0.0.hasPrefix("access-control-") })
        let actual = try await http.request("GET", "/items/1", headers: [("Origin", "https://app.example.com")])
        #expect(actual.status == 200)
        #expect(actual.headers.contains { $0 == ("access-control-allow-origin", "https://app.example.com") })
        #expect(actual.headers.contains { $0 == ("access-control-expose-headers", "x-custom") })
        let foreign = try await http.request("GET", "/items/1", headers: [("Origin", "https://evil.example")])
        #expect(!foreign.headers.contains { $0.0.hasPrefix("access-control-") })
        _ = await http.stop()

        // REST: the OPTIONS mock SAM adds answers 200 with the configured values.
        let rest = try await LocalAPI(template: Self.template, cli: cli)
        defer { rest.process.kill(SIGINT) }
        let restPreflight = try await rest.request(
            "OPTIONS", "/items/1",
            headers: [("Origin", "https://any.example"), ("Access-Control-Request-Method", "GET")])
        #expect(restPreflight.status == 200)
        #expect(restPreflight.headers.contains { $0 == ("access-control-allow-origin", "*") })
        #expect(restPreflight.headers.contains { $0 == ("access-control-allow-methods", "GET,POST") })
        #expect(restPreflight.headers.contains { $0 == ("access-control-max-age", "300") })
        #expect(rest.routeProcesses().isEmpty)
        _ = await rest.stop()
    }
}
