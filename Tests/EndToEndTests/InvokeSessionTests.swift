import Foundation
import GatehouseJSON
import JOSE
import LambdaRuntime
import Testing

/// The sessions lifecycle through the real binaries: `gatehouse dev auth-code`, then
/// `gatehouse invoke Exchange`, `Refresh` and `Logout` with HTTP API events, as the README
/// shows it.
struct InvokeSessionTests {
    let cli = GatehouseCLI()

    /// An HTTP API event for `path` with `body` as its raw body (nil: no body).
    static func event(_ path: String, body: String?) throws -> Data {
        var event = try JSONDecoder().decode(
            JSONValue.self,
            from: Data(contentsOf: GatehouseCLI.repositoryRoot.appendingPathComponent("events/exchange.json")))
        guard case .object(var members) = event else { return Data() }
        members["rawPath"] = .string(path)
        members["routeKey"] = .string("POST \(path)")
        members["body"] = body.map(JSONValue.string) ?? .none
        event = .object(members)
        return Data(event.serialized.utf8)
    }

    /// Invokes `function` with `body` (and, for routes behind the authorizer, the context the
    /// authorizer gives a signed-in `userID`); the status and the parsed response body.
    /// `claimedUserID` puts another `userId` beside the verified `sub`.
    /// Invokes `function` with an event for `path`; with `userID`, as the authorizer passes it on
    /// (its `sub`, the session `sessionID` and the `userId` the token's data claims).
    func invoke(
        _ function: String, _ path: String, body: String?, userID: String? = nil, claimedUserID: String? = nil,
        sessionID: String? = nil
    ) async throws -> (status: Int, body: JSONValue) {
        var event = try JSONValue(parsing: Array(try Self.event(path, body: body)))
        if let userID, case .object(var members) = event, case .object(var context)? = members["requestContext"] {
            context["authorizer"] = [
                "lambda": [
                    "sub": .string(userID), "iss": "http://127.0.0.1:3000",
                    "userId": .string(claimedUserID ?? userID), "sid": .string(sessionID ?? ""),
                ]
            ]
            members["requestContext"] = .object(context)
            event = .object(members)
        }
        let run = try await cli.run(
            ["invoke", function, "--no-build", "--event", "-"], stdin: Data(event.serialized.utf8))
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let response = try run.json()
        let text = try #require(response["body"]?.stringValue)
        #expect(response["headers"]?["cache-control"] == "no-store")
        return (Int(response["statusCode"]?.numberValue ?? 0), try JSONValue(parsing: Array(text.utf8)))
    }

    /// The session an exchange's access token belongs to (its `sid` claim).
    static func sessionID(_ exchanged: JSONValue) throws -> String {
        let token = try #require(exchanged["accessToken"]?.stringValue)
        let payload = try #require(Base64URL.decode(String(token.split(separator: ".")[1])))
        return try #require(try JSONValue(parsing: payload)["sid"]?.stringValue)
    }

    func mint(email: String = "ada@example.com") async throws -> String {
        let run = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", email, "--name", "Ada"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func sessionCount() async throws -> Int {
        let run = try await cli.run(["db", "scan", "Sessions"])
        return run.stdoutText.split(separator: "\n").count
    }

    @Test func mintExchangeVerifyRefreshRotateReuseAndLogOut() async throws {
        let code = try await mint()
        let exchanged = try await invoke("Exchange", "/auth/exchange", body: #"{"code":"\#(code)","app":"demo"}"#)
        #expect(exchanged.status == 200)
        #expect(exchanged.body["user"]?["email"] == "ada@example.com")
        #expect(exchanged.body["user"]?["isNewUser"] == true)
        let accessToken = try #require(exchanged.body["accessToken"]?.stringValue)
        let refreshToken = try #require(exchanged.body["refreshToken"]?.stringValue)
        #expect(refreshToken.utf8.count == 128)

        // The access token verifies against what the Jwks function publishes.
        let jwks = try await cli.run(["invoke", "Jwks", "--no-build", "--event", "events/jwks.json"])
        let published = try VerificationKeySet(jwksJSON: Array(try #require(jwks.json()["body"]?.stringValue).utf8))
        let verified = try JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"])
            .verify(accessToken, keys: published, now: Date().timeIntervalSince1970)
        #expect(verified.subject == exchanged.body["user"]?["id"]?.stringValue)
        #expect(verified.claims.object("data")?["name"] == "Ada")

        // The code was single use.
        let again = try await invoke("Exchange", "/auth/exchange", body: #"{"code":"\#(code)","app":"demo"}"#)
        #expect(again.status == 401)
        #expect(again.body["error"] == "invalid_code")

        // Refresh rotates; the old token works once more within the grace, then it is a reuse
        // that ends the session.
        let refreshed = try await invoke("Refresh", "/auth/refresh", body: #"{"refreshToken":"\#(refreshToken)"}"#)
        #expect(refreshed.status == 200)
        #expect(refreshed.body["user"]?["isNewUser"] == false)
        let rotated = try #require(refreshed.body["refreshToken"]?.stringValue)
        #expect(rotated != refreshToken)
        let retried = try await invoke("Refresh", "/auth/refresh", body: #"{"refreshToken":"\#(refreshToken)"}"#)
        #expect(retried.status == 200)
        let reused = try await invoke("Refresh", "/auth/refresh", body: #"{"refreshToken":"\#(refreshToken)"}"#)
        #expect(reused.status == 401)
        #expect(reused.body["error"] == "refresh_token_reused")
        #expect(try await sessionCount() == 0)

        // Logout: local ends one session, global all of them; an unknown token is still a success.
        let first = try await invoke(
            "Exchange", "/auth/exchange", body: #"{"code":"\#(try await mint())","app":"demo"}"#)
        let second = try await invoke(
            "Exchange", "/auth/exchange", body: #"{"code":"\#(try await mint())","app":"demo"}"#)
        #expect(try await sessionCount() == 2)
        let firstToken = try #require(first.body["refreshToken"]?.stringValue)
        let secondToken = try #require(second.body["refreshToken"]?.stringValue)
        #expect(
            try await invoke("Logout", "/auth/logout", body: #"{"refreshToken":"\#(firstToken)"}"#).body == [
                "success": true
            ])
        #expect(try await sessionCount() == 1)
        let global = try await invoke(
            "Logout", "/auth/logout", body: #"{"refreshToken":"\#(secondToken)","scope":"global"}"#)
        #expect(global.status == 200)
        #expect(try await sessionCount() == 0)
        #expect(try await invoke("Logout", "/auth/logout", body: #"{"refreshToken":"unknown"}"#).status == 200)
        let afterLogout = try await invoke("Refresh", "/auth/refresh", body: #"{"refreshToken":"\#(secondToken)"}"#)
        #expect(afterLogout.body["error"] == "invalid_refresh_token")
    }

    /// The signed-in user reads and deletes their account; the address can then sign up again.
    @Test func profileThenDeleteAccount() async throws {
        let exchanged = try await invoke(
            "Exchange", "/auth/exchange", body: #"{"code":"\#(try await mint())","app":"demo"}"#)
        let userID = try #require(exchanged.body["user"]?["id"]?.stringValue)
        let refreshToken = try #require(exchanged.body["refreshToken"]?.stringValue)

        let profile = try await invoke("UserProfile", "/users/me", body: nil, userID: userID)
        #expect(profile.status == 200)
        #expect(profile.body["id"] == .string(userID))
        #expect(profile.body["email"] == "ada@example.com")
        #expect(profile.body["providers"] == ["email": "ada@example.com"])
        let anonymous = try await invoke("UserProfile", "/users/me", body: nil)
        #expect(anonymous.status == 401)

        let deleted = try await invoke(
            "DeleteAccount", "/users/me", body: nil, userID: userID, sessionID: try Self.sessionID(exchanged.body))
        #expect(deleted.status == 200)
        #expect(
            deleted.body
                == [
                    "success": true,
                    "message": "The account has been deleted and all of its sessions have been signed out.",
                ])
        #expect(try await sessionCount() == 0)
        #expect(try await invoke("UserProfile", "/users/me", body: nil, userID: userID).status == 404)
        #expect(try await invoke("DeleteAccount", "/users/me", body: nil, userID: userID).status == 404)
        let refresh = try await invoke("Refresh", "/auth/refresh", body: #"{"refreshToken":"\#(refreshToken)"}"#)
        #expect(refresh.body["error"] == "invalid_refresh_token")

        // The same address signs up again as a new user.
        let again = try await invoke(
            "Exchange", "/auth/exchange", body: #"{"code":"\#(try await mint())","app":"demo"}"#)
        #expect(again.body["user"]?["isNewUser"] == true)
        #expect(again.body["user"]?["id"] != .string(userID))
    }

    /// The account acted on is the verified `sub`, whatever `userId` the context also carries
    /// (before, both functions read `userId`, which comes from the token's unverified-by-design
    /// `data` claim).
    @Test func theUserIsTheVerifiedSubject() async throws {
        let ada = try await invoke(
            "Exchange", "/auth/exchange", body: #"{"code":"\#(try await mint())","app":"demo"}"#)
        let bob = try await invoke(
            "Exchange", "/auth/exchange",
            body: #"{"code":"\#(try await mint(email: "bob@example.com"))","app":"demo"}"#)
        let adaID = try #require(ada.body["user"]?["id"]?.stringValue)
        let bobID = try #require(bob.body["user"]?["id"]?.stringValue)
        let profile = try await invoke("UserProfile", "/users/me", body: nil, userID: adaID, claimedUserID: bobID)
        #expect(profile.body["id"] == .string(adaID))
        let deleted = try await invoke(
            "DeleteAccount", "/users/me", body: nil, userID: adaID, claimedUserID: bobID,
            sessionID: try Self.sessionID(ada.body))
        #expect(deleted.status == 200)
        #expect(try await invoke("UserProfile", "/users/me", body: nil, userID: bobID).status == 200)
        #expect(try await invoke("UserProfile", "/users/me", body: nil, userID: adaID).status == 404)
    }

    /// Bad input gets a 400 that names what is wrong, and nothing is written.
    @Test(
        arguments: [
            ("Exchange", "/auth/exchange", nil, "The request has no body; a JSON object is expected."),
            ("Exchange", "/auth/exchange", "not json", "The body is not valid JSON."),
            ("Exchange", "/auth/exchange", "[1]", "The body must be a JSON object."),
            ("Exchange", "/auth/exchange", #"{"code":42}"#, "code must be a string."),
            ("Exchange", "/auth/exchange", #"{"code":""}"#, "code must not be empty."),
            (
                "Exchange", "/auth/exchange", #"{"code":"\#(String(repeating: "x", count: 20_000))"}"#,
                "The body is larger than 16384 bytes."
            ),
            ("Refresh", "/auth/refresh", #"{"token":"x"}"#, "refreshToken is required."),
            (
                "Logout", "/auth/logout", #"{"refreshToken":"x","scope":"everywhere"}"#,
                #"scope must be "local" or "global"."#
            ),
        ] as [(String, String, String?, String)])
    func badInputIsA400NamingTheProblem(function: String, path: String, body: String?, message: String) async throws {
        let answer = try await invoke(function, path, body: body)
        #expect(answer.status == 400)
        #expect(answer.body == ["error": "invalid_request", "message": .string(message)])
        #expect(try await sessionCount() == 0)
    }
}
