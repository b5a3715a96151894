import Emulator
import Foundation
import GatehouseJSON
import LambdaRuntime
import TestServers
import Testing

/// Every function on the events `sam local generate-event` makes (`events/sam/`), in both of
/// API Gateway's payload formats: REST's 1.0 (`aws-proxy`) and the HTTP API's 2.0. Each runs
/// as the real binary through `gatehouse invoke`, and answers in the format it was called in.
struct InvokeSAMEventTests {
    let cli = GatehouseCLI()

    /// `events/sam/{name}.{v1|v2}.json`.
    static func eventFile(_ name: String, _ format: PayloadFormat) -> String {
        "events/sam/\(name).\(format == .v1 ? "v1" : "v2").json"
    }

    /// The SAM event with `body` (base64, as SAM writes it) and, behind the authorizer, the
    /// context the authorizer gives `userID` (nil: no authorizer context at all).
    static func event(
        _ name: String, _ format: PayloadFormat, body: JSONValue?, userID: String? = nil, sessionID: String? = nil
    ) throws
        -> JSONValue
    {
        let url = GatehouseCLI.repositoryRoot.appendingPathComponent(eventFile(name, format))
        guard case .object(var event) = try JSONValue(parsing: Array(try Data(contentsOf: url))) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        if let body {
            event["body"] = .string(Data(body.serialized.utf8).base64EncodedString())
            event["isBase64Encoded"] = true
        }
        if case .object(var context)? = event["requestContext"] {
            // Gatehouse's own token: the issuer `gatehouse invoke` gives the functions (ISSUER).
            let issuer: JSONValue = "http://127.0.0.1:3000"
            let sid = JSONValue.string(sessionID ?? "")
            let claims: JSONValue? = userID.map {
                ["sub": .string($0), "iss": issuer, "userId": .string($0), "sid": sid]
            }
            context["authorizer"] =
                format == .v2
                ? claims.map { ["lambda": $0] }
                : userID.map { ["principalId": .string($0), "sub": .string($0), "iss": issuer, "sid": sid] }
            event["requestContext"] = .object(context)
        }
        return .object(event)
    }

    /// Invokes `function`; the whole Lambda answer, checked to be in `format`'s shape.
    func invoke(_ function: String, _ event: JSONValue, _ format: PayloadFormat) async throws -> JSONValue {
        let run = try await cli.run(
            ["invoke", function, "--no-build", "--event", "-"], stdin: Data(event.serialized.utf8))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("UnmarshalError"), "stderr: \(run.stderr)")
        let answer = try run.json()
        #expect(answer["statusCode"]?.numberValue != nil)
        // Payload 2.0's `cookies` never reaches a REST API, nor 1.0's `multiValueHeaders` an HTTP API.
        #expect(answer[format == .v1 ? "cookies" : "multiValueHeaders"] == nil)
        return answer
    }

    /// The status and the parsed body of `function`'s answer.
    func call(
        _ function: String, _ name: String, _ format: PayloadFormat, body: JSONValue?, userID: String? = nil,
        sessionID: String? = nil
    )
        async throws -> (status: Int, body: JSONValue)
    {
        let event = try Self.event(name, format, body: body, userID: userID, sessionID: sessionID)
        let answer = try await invoke(function, event, format)
        let text = try #require(answer["body"]?.stringValue)
        return (Int(answer["statusCode"]?.numberValue ?? 0), try JSONValue(parsing: Array(text.utf8)))
    }

    func mint(app: String = "demo") async throws -> String {
        let run = try await cli.run(["dev", "auth-code", "--app", app, "--email", "ada@example.com", "--name", "Ada"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: PayloadFormat.allCases)
    func theSessionFunctionsTakeEitherFormat(_ format: PayloadFormat) async throws {
        let code = try await mint()
        let session = try await call(
            "Exchange", "exchange", format, body: ["code": .string(code), "app": "demo"])
        #expect(session.status == 200)
        let userID = try #require(session.body["user"]?["id"]?.stringValue)
        let refreshToken = try #require(session.body["refreshToken"]?.stringValue)

        let profile = try await call("UserProfile", "user-profile", format, body: nil, userID: userID)
        #expect(profile.status == 200)
        #expect(profile.body["email"] == "ada@example.com")

        let refreshed = try await call("Refresh", "refresh", format, body: ["refreshToken": .string(refreshToken)])
        #expect(refreshed.status == 200)
        let rotated = try #require(refreshed.body["refreshToken"]?.stringValue)

        let deleted = try await call(
            "DeleteAccount", "delete-account", format, body: nil, userID: userID,
            sessionID: try InvokeSessionTests.sessionID(session.body))
        #expect(deleted.status == 200)
        let gone = try await call("UserProfile", "user-profile", format, body: nil, userID: userID)
        #expect(gone.status == 404)

        // Logging out a session that deletion ended answers as for any token.
        let logout = try await call("Logout", "logout", format, body: ["refreshToken": .string(rotated)])
        #expect(logout.status == 200)
        #expect(logout.body == ["success": true])
    }

    @Test(arguments: PayloadFormat.allCases)
    func refusalsComeBackInTheRequestsFormat(_ format: PayloadFormat) async throws {
        let missing = try await call("Exchange", "exchange", format, body: ["app": "demo"])
        #expect(missing.status == 400)
        #expect(missing.body["error"] == "invalid_request")
        let unknown = try await call("Refresh", "refresh", format, body: ["refreshToken": "nope"])
        #expect(unknown.status == 401)
        let anonymous = try await call("UserProfile", "user-profile", format, body: nil)
        #expect(anonymous.status == 401)
        #expect(anonymous.body["error"] == "unauthorized")
    }

    @Test(arguments: PayloadFormat.allCases)
    func jwksAnswersInEitherFormat(_ format: PayloadFormat) async throws {
        let answer = try await invoke("Jwks", try Self.event("jwks", format, body: nil), format)
        #expect(answer["statusCode"] == 200)
        let keys = try JSONValue(parsing: Array(try #require(answer["body"]?.stringValue).utf8))
        #expect(keys["keys"]?.arrayValue?.isEmpty == false)
    }

    @Test(arguments: PayloadFormat.allCases)
    func verifyCodeTakesASignedCallInEitherFormat(_ format: PayloadFormat) async throws {
        let verifyTests = InvokeVerifyCodeTests()
        let key = try await verifyTests.registerApp()
        let code = try await verifyTests.mint(app: "acme")
        let body = #"{"app":"acme","code":"\#(code)"}"#
        let signed = try await verifyTests.cli.run([
            "s2s", "sign", "--app", "acme", "--key", key, "--body", body, "--event",
            Self.eventFile("verify-code", format),
        ])
        #expect(signed.status == 0, "stderr: \(signed.stderr)")
        let run = try await verifyTests.cli.run(
            ["invoke", "VerifyCode", "--no-build", "--event", "-"], stdin: signed.stdout)
        let answer = try run.json()
        #expect(answer["statusCode"] == 200, "\(answer)")
        let verified = try JSONValue(parsing: Array(try #require(answer["body"]?.stringValue).utf8))
        #expect(verified["email"] == "ada@example.com")
    }

    @Test(arguments: ["authorizer-token.v1.json", "authorizer-request.v1.json"])
    func theAuthorizerAllowsRESTEventsWithAStageWidePolicy(_ file: String) async throws {
        let authorizerTests = InvokeAuthorizerTests()
        let (jwks, token, _) = try await authorizerTests.setUp()
        defer { Task { await jwks.server.stop() } }
        let run = try await authorizerTests.invoke("events/sam/\(file)", token: token, jwks: jwks)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let policy = try run.json()
        #expect(policy["principalId"] == "user-42")
        let statement = try #require(policy["policyDocument"]?["Statement"]?.arrayValue?.first)
        #expect(statement["Effect"] == "Allow")
        #expect(statement["Action"] == "execute-api:Invoke")
        let resource = try #require(statement["Resource"]?.stringValue)
        #expect(resource.hasSuffix("/*") && resource.hasPrefix("arn:aws:execute-api:us-east-1:123456789012:"))
        #expect(policy["context"]?["sub"] == "user-42")
    }
}
