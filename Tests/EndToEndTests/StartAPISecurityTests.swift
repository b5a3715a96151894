import Emulator
import Foundation
import GatehouseJSON
import JOSE
import Testing

/// The session and code protections through `gatehouse start-api`, the way an app meets them:
/// each request a real HTTP call to the real binaries, each check an answer or the store.
struct StartAPISecurityTests {
    let cli = GatehouseCLI()

    /// The project's API with the authorizer's caches off (API Gateway's and the function's own),
    /// so a revocation shows on the very next request; the refresh grace off, so a replay is a
    /// reuse at once.
    func api() async throws -> LocalAPI {
        try await LocalAPI(
            template: GatehouseCLI.projectTemplate, cli: cli, extra: ["--no-authorizer-cache"],
            variables: [
                "Authorizer": ["JWKS_FETCH_TIMEOUT_SECONDS": "8", "AUTHORIZER_SESSION_CACHE_SECONDS": "0"],
                "Refresh": ["REFRESH_REUSE_GRACE_SECONDS": "0"],
            ])
    }

    func mint(app: String = "demo", email: String = "ada@example.com") async throws -> String {
        let run = try await cli.run(["dev", "auth-code", "--app", app, "--email", email])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func post(_ api: LocalAPI, _ path: String, _ body: JSONValue) async throws -> (status: Int, body: JSONValue) {
        let answer = try await api.request(
            "POST", path, headers: [("Content-Type", "application/json")], body: Array(body.serialized.utf8))
        return (answer.status, try JSONValue(parsing: answer.body))
    }

    func profileStatus(_ api: LocalAPI, _ accessToken: String) async throws -> Int {
        try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(accessToken)")]).status
    }

    /// A code is redeemed only by its own app, on a route its app allows; a refused code is
    /// spent. Before, `/auth/exchange` took `{code}` and redeemed any app's code.
    @Test func codesAreRedeemedOnlyByTheirAppOnAnAllowedRoute() async throws {
        let added = try await cli.run(["apps", "add", "--id", "bank", "--name", "Bank", "--redeem", "backend"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await cli.run(["apps", "add", "--id", "shop", "--name", "Shop"]).status == 0)
        let api = try await api()
        defer { api.process.kill(SIGINT) }

        let code = try await mint()
        let wrongApp = try await post(api, "/auth/exchange", ["code": .string(code), "app": "shop"])
        #expect(wrongApp.status == 401)
        #expect(wrongApp.body["error"] == "invalid_code")
        let unknown = try await post(api, "/auth/exchange", ["code": "no-such-code", "app": "demo"])
        #expect(unknown.body == wrongApp.body, "a code of another app looks like an unknown one")
        let afterwards = try await post(api, "/auth/exchange", ["code": .string(code), "app": "demo"])
        #expect(afterwards.status == 401, "the refused code was spent")

        // Without `app`, the request is the default app's (`demo`): another app's code is refused
        // and spent all the same.
        let missingApp = try await post(api, "/auth/exchange", ["code": .string(try await mint(app: "shop"))])
        #expect(missingApp.status == 401)
        #expect(missingApp.body == wrongApp.body)

        let bankCode = try await mint(app: "bank")
        let backendOnly = try await post(api, "/auth/exchange", ["code": .string(bankCode), "app": "bank"])
        #expect(backendOnly.status == 401)
        #expect(backendOnly.body["error"] == "invalid_code")
        // Every refused code is spent.
        #expect(try await cli.run(["db", "scan", "AuthCodes"]).stdoutText.isEmpty)
        #expect(try await cli.run(["db", "scan", "Sessions"]).stdoutText.isEmpty)
        _ = await api.stop()
    }

    /// Deleting the account needs a recent sign-in, as a password change does: from a session
    /// that started longer than `RECENT_SIGN_IN_SECONDS` ago (0 here: every session) the answer
    /// is 403 `reauthentication_required` and the account stays. (Any live access token deleted
    /// it; a fresh session still does, in `accessTokensDieWithTheirSession`.)
    @Test func deletingTheAccountNeedsARecentSignIn() async throws {
        try await LocalAPI.with(cli: cli, variables: ["DeleteAccount": ["RECENT_SIGN_IN_SECONDS": "0"]]) { api in
            let (status, token) = try await api.signIn("ada@example.com", cli: cli)
            #expect(status == 200)
            let bearer = [("Authorization", "Bearer \(try #require(token))")]
            let refused = try await api.request("DELETE", "/users/me", headers: bearer)
            #expect(refused.status == 403)
            #expect(try JSONValue(parsing: refused.body)["error"] == "reauthentication_required")
            #expect(try await profileStatus(api, try #require(token)) == 200, "the account is still there")
        }
    }

    /// From a session that is not recent, the nonce `/auth/v1/reauthenticate` mails deletes the
    /// account (the JSON body `{"nonce"}`), as it allows a password change; a wrong one is 403
    /// `invalid_code` and the account stays.
    @Test func theMailedNonceDeletesTheAccountFromAnOldSession() async throws {
        try await LocalAPI.with(cli: cli, variables: ["DeleteAccount": ["RECENT_SIGN_IN_SECONDS": "0"]]) { api in
            let (status, token) = try await api.signIn("nonce@example.com", cli: cli)
            #expect(status == 200)
            let access = try #require(token)
            let key = try await SupabaseClientTests.apiKey(cli)
            let sent = try await api.request(
                "POST", "/auth/v1/reauthenticate", headers: [("apikey", key), ("Authorization", "Bearer \(access)")])
            #expect(sent.status == 200, "\(String(decoding: sent.body, as: UTF8.self))")
            let mail = try #require(
                try await cli.run(["outbox", "--json", "--to", "nonce@example.com"]).stdoutText.split(separator: "\n")
                    .last)
            let nonce = try #require(try JSONValue(parsing: Array(mail.utf8))["secret"]?.stringValue)
            let wrong = nonce == "000000" ? "000001" : "000000"
            func delete(_ nonce: String) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
                try await api.request(
                    "DELETE", "/users/me",
                    headers: [("Authorization", "Bearer \(access)"), ("Content-Type", "application/json")],
                    body: Array(#"{"nonce":"\#(nonce)"}"#.utf8))
            }
            let refused = try await delete(wrong)
            #expect(refused.status == 403)
            #expect(try JSONValue(parsing: refused.body)["error"] == "invalid_code")
            #expect(try await cli.run(["db", "scan", "Users"]).stdoutText.contains("nonce@example.com"))
            let deleted = try await delete(nonce)
            #expect(deleted.status == 200, "\(String(decoding: deleted.body, as: UTF8.self))")
            #expect(!(try await cli.run(["db", "scan", "Users"]).stdoutText.contains("nonce@example.com")))
        }
    }

    /// An access token stops working when its session ends: by logout, by account deletion, by
    /// a refresh token's reuse. Before, it worked until it expired (a day in production).
    @Test func accessTokensDieWithTheirSession() async throws {
        let api = try await api()
        defer { api.process.kill(SIGINT) }

        // Logout.
        var session = try await post(api, "/auth/exchange", ["code": .string(try await mint()), "app": "demo"])
        var access = try #require(session.body["accessToken"]?.stringValue)
        #expect(try await profileStatus(api, access) == 200)
        let logout = try await post(api, "/auth/logout", ["refreshToken": session.body["refreshToken"] ?? .null])
        #expect(logout.status == 200)
        #expect(try await profileStatus(api, access) == 403)
        #expect(try await eventually { api.log.contains("\"reason\":\"session_ended\"") })

        // Refresh-token reuse: the second use of a rotated-out token ends the session.
        session = try await post(api, "/auth/exchange", ["code": .string(try await mint()), "app": "demo"])
        access = try #require(session.body["accessToken"]?.stringValue)
        let first = session.body["refreshToken"] ?? .null
        let rotated = try await post(api, "/auth/refresh", ["refreshToken": first])
        #expect(rotated.status == 200)
        let newAccess = try #require(rotated.body["accessToken"]?.stringValue)
        #expect(try await profileStatus(api, newAccess) == 200)
        let reused = try await post(api, "/auth/refresh", ["refreshToken": first])
        #expect(reused.body["error"] == "refresh_token_reused")
        #expect(try await profileStatus(api, access) == 403)
        #expect(try await profileStatus(api, newAccess) == 403)

        // Account deletion, with the token that deleted it.
        session = try await post(api, "/auth/exchange", ["code": .string(try await mint()), "app": "demo"])
        access = try #require(session.body["accessToken"]?.stringValue)
        let deleted = try await api.request("DELETE", "/users/me", headers: [("Authorization", "Bearer \(access)")])
        #expect(deleted.status == 200)
        #expect(try await profileStatus(api, access) == 403)
        _ = await api.stop()
    }

    /// A trusted issuer's token whose `sub` is a Gatehouse user's id is not that user: Gatehouse's
    /// own routes (`/users/me`) take only Gatehouse's tokens. Before, the authorizer put the
    /// foreign `sub` where the routes read the user, so it read and deleted the account.
    @Test func aTrustedIssuersTokenIsNeverAGatehouseUser() async throws {
        let provider = try await TestOIDCProvider.start()
        let trusted =
            #"[{"issuer":"\#(provider.issuer)","jwksUrl":"\#(provider.url("/jwks"))","audiences":["orders"]}]"#
        let api = try await LocalAPI(
            template: GatehouseCLI.projectTemplate, cli: cli, extra: ["--no-authorizer-cache"],
            variables: [
                "Authorizer": [
                    "TRUSTED_ISSUERS": trusted, "AUTHORIZER_SESSION_CACHE_SECONDS": "0",
                    // The issuer's keys are served by this busy test process, and fetched as start-api
                    // starts: patience for that fetch, and a failed one retried at the first request.
                    "JWKS_FETCH_TIMEOUT_SECONDS": "8", "JWKS_PENALTY_SECONDS": "0",
                ]
            ])
        defer { api.process.kill(SIGINT) }

        let session = try await post(api, "/auth/exchange", ["code": .string(try await mint()), "app": "demo"])
        let access = try #require(session.body["accessToken"]?.stringValue)
        let userID = try #require(session.body["user"]?["id"]?.stringValue)
        #expect(try await profileStatus(api, access) == 200)
        let now = Date().timeIntervalSince1970.rounded()
        let foreign = try JWS.signJWT(
            claims: [
                "iss": .string(provider.issuer), "aud": "orders", "sub": .string(userID),
                "iat": .number(now), "exp": .number(now + 600),
            ],
            with: provider.key)
        let read = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(foreign)")])
        #expect(read.status == 401, "\(String(decoding: read.body, as: UTF8.self))")
        #expect(!String(decoding: read.body, as: UTF8.self).contains("ada@example.com"))
        let deleted = try await api.request("DELETE", "/users/me", headers: [("Authorization", "Bearer \(foreign)")])
        #expect(deleted.status == 401)
        #expect(try await profileStatus(api, access) == 200, "the account is still there")
        _ = await api.stop()
        await provider.stop()
    }

    /// Stopping start-api reaps every function process before it exits: right after, none of
    /// them is left, not even as a zombie. Before, it killed them and exited at once, leaving
    /// them to whatever adopted them.
    @Test func stoppingLeavesNoProcessBehind() async throws {
        let api = try await LocalAPI(
            template: GatehouseCLI.projectTemplate, cli: cli, extra: ["--warm-containers", "EAGER"])
        defer { api.process.kill(SIGKILL) }
        #expect(try await api.request("GET", "/.well-known/jwks.json").status == 200)
        let instances = api.functionProcesses()
        #expect(instances.count >= 8, "one instance of each function: \(instances)")
        _ = await api.stop()
        let left = instances.filter { ProcessTable.statFields($0) != nil }
        #expect(
            left.isEmpty, "still in the process table: \(left.map { ($0, ProcessTable.statFields($0)?.first ?? "") })")
    }
}
