import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// The sessions through `start-api --store dynamodb`, against moto_server: the functions open
/// DynamoDB (no store file), start-api makes the template's tables there, and the CLI reads them.
@Suite(.serialized)
struct StartAPIDynamoDBTests {
    let cli = GatehouseCLI()

    /// start-api on the project's template with the store on the test process's moto_server;
    /// the server and the `--store` options the CLI's other commands need too.
    func startOnDynamoDB(endpoint: String? = nil, overrides: [String] = []) async throws -> (LocalAPI, [String]) {
        let store = ["--store", "dynamodb", "--dynamodb-endpoint", try await Self.moto(endpoint)]
        // DynamoDB gets no demo app of itself: added as a developer would (once per server).
        let demo = try await cli.run(
            [
                "apps", "add", "--id", "demo", "--name", "Demo app", "--base-url", "http://127.0.0.1:3000",
                "--mobile-scheme",
                "gatehouse-demo",
            ] + store)
        #expect(demo.status == 0 || demo.stderr.contains("already exists"), "\(demo.stderr)")
        // The Authorizer's first fetch cold-starts Jwks: patient on a machine busy with the suite.
        let api = try await LocalAPI(
            template: GatehouseCLI.projectTemplate, cli: cli,
            extra: store + (overrides.isEmpty ? [] : ["--parameter-overrides"] + overrides),
            variables: ["Authorizer": ["JWKS_FETCH_TIMEOUT_SECONDS": "8"]])
        return (api, store)
    }

    /// `endpoint`, or the test process's moto_server.
    static func moto(_ endpoint: String?) async throws -> String {
        if let endpoint { return endpoint }
        return try await MotoServer.shared.endpoint()
    }

    @Test func mintExchangeRefreshReuseAndLogoutOnDynamoDB() async throws {
        let (api, store) = try await startOnDynamoDB()
        defer { api.process.kill(SIGINT) }
        func post(_ path: String, _ body: String) async throws -> (Int, JSONValue?) {
            let answer = try await api.request(
                "POST", path, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
            return (answer.status, try? JSONValue(parsing: answer.body))
        }

        let email = "dynamo-\(UUID().uuidString.prefix(8))@example.com"
        let mint = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", email] + store)
        #expect(mint.status == 0, "\(mint.stderr)")
        let code = mint.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let (exchanged, session) = try await post("/auth/exchange", #"{"code":"\#(code)","app":"demo"}"#)
        #expect(exchanged == 200)
        let access = try #require(session?["accessToken"]?.stringValue)
        let first = try #require(session?["refreshToken"]?.stringValue)
        #expect(try await post("/auth/exchange", #"{"code":"\#(code)","app":"demo"}"#).0 == 401, "a code works once")

        let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(access)")])
        #expect(profile.status == 200)
        #expect(try JSONValue(parsing: profile.body)["email"] == .string(email))

        let (refreshed, rotated) = try await post("/auth/refresh", #"{"refreshToken":"\#(first)"}"#)
        #expect(refreshed == 200)
        let second = try #require(rotated?["refreshToken"]?.stringValue)
        let (_, rotatedAgain) = try await post("/auth/refresh", #"{"refreshToken":"\#(second)"}"#)
        let newest = try #require(rotatedAgain?["refreshToken"]?.stringValue)
        // The first token again after its successor was used: reuse, so the whole family ends,
        // the newest token with it.
        let (reused, refusal) = try await post("/auth/refresh", #"{"refreshToken":"\#(first)"}"#)
        #expect(reused == 401)
        #expect(refusal?["error"] == "refresh_token_reused")
        #expect(try await post("/auth/refresh", #"{"refreshToken":"\#(newest)"}"#).0 == 401)

        // A new session, logged out: its token no longer refreshes.
        let again = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", email] + store)
        let code2 = again.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let third = try #require(
            try await post("/auth/exchange", #"{"code":"\#(code2)","app":"demo"}"#).1?["refreshToken"]?.stringValue)
        #expect(try await post("/auth/logout", #"{"refreshToken":"\#(third)"}"#).0 == 200)
        #expect(try await post("/auth/refresh", #"{"refreshToken":"\#(third)"}"#).0 == 401)

        // What is in DynamoDB: the user, and refresh tokens only as hashes.
        let users = try await cli.run(["db", "scan", "Users"] + store)
        #expect(users.stdoutText.contains(email))
        let tokens = try await cli.run(["db", "scan", "RefreshTokens"] + store).stdoutText
        #expect(!tokens.isEmpty)
        for token in [first, second, newest, third] { #expect(!tokens.contains(token)) }
        // No store file was made for the functions.
        #expect(!FileManager.default.fileExists(atPath: cli.storeFile))
        _ = await api.stop()
    }

    /// A refresh is three DynamoDB calls, counted at a recording stand-in in front of moto: the
    /// token, the rotation, and the session's row with its user read together.
    /// An anonymous user, its refresh and an Apple identity linked to it, on DynamoDB: each a
    /// transaction of conditional writes on distinct items (the user created with its session;
    /// the user saved with its identity's index item), as DynamoDB takes them.
    @Test func anAnonymousUserRefreshesAndLinksAnIdentityOnDynamoDB() async throws {
        let (api, store) = try await startOnDynamoDB(overrides: ["AnonymousUsers=enabled"])
        defer { api.process.kill(SIGINT) }
        let key = try await SupabaseClientTests.apiKey(cli, store: store)
        func post(_ path: String, _ body: String, bearer: String? = nil) async throws -> (Int, JSONValue?) {
            var headers = [("apikey", key), ("Content-Type", "application/json")]
            if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
            let answer = try await api.request("POST", path, headers: headers, body: Array(body.utf8))
            return (answer.status, try? JSONValue(parsing: answer.body))
        }
        let (status, session) = try await post("/auth/v1/signup", #"{"data":{"theme":"dark"}}"#)
        #expect(status == 200 && session?["user"]?["is_anonymous"] == true, "\(String(describing: session))")
        let refresh = try #require(session?["refresh_token"]?.stringValue)
        let (refreshed, next) = try await post(
            "/auth/v1/token?grant_type=refresh_token", #"{"refresh_token":"\#(refresh)"}"#)
        #expect(refreshed == 200 && next?["user"]?["is_anonymous"] == true)
        let access = try #require(next?["access_token"]?.stringValue)
        let subject = "001.dynamo-\(UUID().uuidString.prefix(8))"
        let token = try await cli.run(["dev", "apple-token", "--sub", subject, "--nonce", "n-1"])
        let appleToken = token.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let (linked, permanent) = try await post(
            "/auth/v1/token?grant_type=id_token",
            #"{"provider":"apple","id_token":"\#(appleToken)","nonce":"n-1","link_identity":true}"#, bearer: access)
        #expect(linked == 200, "\(String(describing: permanent))")
        #expect(permanent?["user"]?["is_anonymous"] == false)
        #expect(permanent?["user"]?["id"] == session?["user"]?["id"])
        let id = try #require(session?["user"]?["id"]?.stringValue)
        let row = try await cli.run(["db", "get", "Users", id] + store)
        #expect(row.status == 0 && !row.stdoutText.contains("\"ttl\"") && row.stdoutText.contains(subject))
    }

    @Test func aRefreshIsThreeDynamoDBCalls() async throws {
        let standIn = try await RecordingServer.start(forwardingTo: try await MotoServer.shared.endpoint())
        defer { Task { await standIn.stop() } }
        let (api, store) = try await startOnDynamoDB(endpoint: standIn.baseURL)
        defer { api.process.kill(SIGINT) }
        let email = "count-\(UUID().uuidString.prefix(8))@example.com"
        let code = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", email] + store).stdoutText
        let exchanged = try await api.request(
            "POST", "/auth/exchange", headers: [("Content-Type", "application/json")],
            body: Array(#"{"code":"\#(code.trimmingCharacters(in: .whitespacesAndNewlines))","app":"demo"}"#.utf8))
        let token = try #require(try JSONValue(parsing: exchanged.body)["refreshToken"]?.stringValue)
        standIn.clear()
        let refreshed = try await api.request(
            "POST", "/auth/refresh", headers: [("Content-Type", "application/json")],
            body: Array(#"{"refreshToken":"\#(token)"}"#.utf8))
        #expect(refreshed.status == 200)
        // start-api itself reads the outbox every second, to announce what was sent: not the
        // function's. The exchange's audit items are written after its answer, maybe after the
        // clear: not the refresh's either.
        let calls = standIn.requests.filter { request in
            (try? JSONValue(parsing: request.body)["TableName"]?.stringValue?.hasSuffix("Outbox")) != true
                && !String(decoding: request.body, as: UTF8.self).contains("AuditLog")
        }
        #expect(
            calls.map { $0.header("x-amz-target") } == [
                "DynamoDB_20120810.GetItem", "DynamoDB_20120810.TransactWriteItems",
                "DynamoDB_20120810.TransactGetItems",
            ])
        // The exchange's sign-in (a new user's: `sign_up`) is in the audit log, which
        // `gatehouse audit` reads from DynamoDB.
        var audit = ""
        #expect(
            try await eventuallyAwaiting(10) {
                let run = try await cli.run(["audit", "--action", "sign_up", "--json"] + store)
                audit = run.stdoutText + run.stderr
                return audit.contains(#""action":"sign_up""#) && audit.contains(#""method":"otp""#)
            }, "\(audit)")
        _ = await api.stop()
    }

    /// The browser's OAuth flow (login_hint at the dev provider), the demo app's exchange,
    /// profile and sign-out, Sign in with Apple and account deletion, each function given only
    /// its template's tables (`TABLE_*`): a table one uses without being given it fails here.
    @Test func everySignInFunctionFindsItsTablesOnDynamoDB() async throws {
        let (api, store) = try await startOnDynamoDB()
        defer { api.process.kill(SIGINT) }
        let base = "http://127.0.0.1:\(api.port)"
        func location(_ answer: (status: Int, headers: [(String, String)], body: [UInt8])) -> String {
            answer.headers.first { $0.0 == "location" }?.1 ?? ""
        }
        func cookies(_ answer: (status: Int, headers: [(String, String)], body: [UInt8])) -> String {
            answer.headers.filter { $0.0 == "set-cookie" }.map { String($0.1.split(separator: ";")[0]) }
                .joined(separator: "; ")
        }
        let email = "oauth-\(UUID().uuidString.prefix(6))@example.com"
        let begun = try await api.request("GET", "/auth?app=demo&provider=google")
        let authorize = String(location(begun).dropFirst(base.count)) + "&login_hint=\(email)"
        let provider = try await api.request("GET", authorize)
        let callback = try await api.request(
            "GET", String(location(provider).dropFirst(base.count)), headers: [("Cookie", cookies(begun))])
        #expect(location(callback).hasPrefix(base + "/app/auth/callback?code="), "\(api.log.suffix(2000))")
        let app = try await api.request("GET", String(location(callback).dropFirst(base.count)))
        #expect(app.status == 303)
        let page = try await api.request("GET", "/app/", headers: [("Cookie", cookies(app))])
        #expect(String(decoding: page.body, as: UTF8.self).contains(email))
        let out = try await api.request("POST", "/app/auth/logout", headers: [("Cookie", cookies(app))])
        #expect(out.status == 303)
        #expect(try await eventually { api.log.contains("POST /auth/logout 200") })

        let token = try await cli.run(
            ["dev", "apple-token", "--sub", "001.dyn", "--email", "apple-\(email)", "--nonce", "n-dyn"] + store)
        let apple = try await api.request(
            "POST", "/auth/verify-apple", headers: [("Content-Type", "application/json")],
            body: Array(
                #"{"identityToken":"\#(token.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))","authorizationCode":"c","user":"001.dyn","nonce":"n-dyn","app":"demo"}"#
                    .utf8))
        #expect(apple.status == 200)
        let access = try #require(try JSONValue(parsing: apple.body)["accessToken"]?.stringValue)
        let deleted = try await api.request("DELETE", "/users/me", headers: [("Authorization", "Bearer \(access)")])
        #expect(deleted.status == 200 || deleted.status == 204)
        let users = try await cli.run(["db", "scan", "Users"] + store).stdoutText
        #expect(users.contains(email) && !users.contains("apple-\(email)"))
        #expect(!api.log.contains("no table named"))
        _ = await api.stop()
    }
}
