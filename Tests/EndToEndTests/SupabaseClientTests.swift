import Crypto
import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// The Supabase-compatible routes through start-api and the real function binaries: driven by
/// Supabase's own Python client (`Tests/Support/Supabase/supabase_flow.py`; `.ci/run` installs
/// `supabase-auth`), and by plain HTTP for what a client library does not show (the bytes of
/// answers, redirects, the lock's counting).
@Suite(.serialized)
struct SupabaseClientTests {
    let cli = GatehouseCLI()

    /// The demo app's publishable key, for the `apikey` header.
    func apiKey() async throws -> String { try await Self.apiKey(cli) }

    /// Runs `Tests/Support/Supabase/<script>` against `api` with the usual arguments (the API's
    /// URL, `key`, the `gatehouse` binary for the outbox) and `extra`: the JSON it printed, or
    /// nil (an issue recorded) when it failed.
    func client(
        _ script: String, api: LocalAPI, key: String? = nil, extra: [String] = []
    ) async throws -> JSONValue? {
        let apikey: String
        if let key { apikey = key } else { apikey = try await apiKey() }
        let run = try await ChildProcess.capture(
            "/usr/bin/env",
            [
                "GATEHOUSE_STORE=\(cli.storeFile)", "SIGNING_KEYS_FILE=\(cli.keysFile)", PythonTools.python,
                GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/\(script)").path,
                "http://127.0.0.1:\(api.port)", apikey,
                GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path,
            ] + extra)
        guard case .exited(0) = run.termination.reason else {
            Issue.record("the client run failed: \(run.standardError)")
            return nil
        }
        return try JSONValue(parsing: Array(run.standardOutput.utf8))
    }

    /// The publishable key of `app` (the demo app by default) in `cli`'s state (`store`: the
    /// `--store` options of another store).
    static func apiKey(_ cli: GatehouseCLI, app: String = "demo", store: [String] = []) async throws -> String {
        let apps = try await cli.run(["apps", "list"] + store)
        let demo = try apps.stdoutText.split(separator: "\n").map { try JSONValue(parsing: Array($0.utf8)) }
            .first { $0["id"] == .string(app) }
        return try #require(demo?["publishableKey"]?.stringValue)
    }

    /// The tokens of the links of `type` mailed to `address`, oldest first.
    func tokens(_ address: String, type: String) async throws -> [String] {
        let run = try await cli.run(["outbox", "--json", "--to", address])
        return try run.stdoutText.split(separator: "\n").compactMap { line in
            let link = try JSONValue(parsing: Array(line.utf8))["secret"]?.stringValue ?? ""
            let query = URLComponents(string: link)?.queryItems ?? []
            guard query.contains(where: { $0.name == "type" && $0.value == type }) else { return nil }
            return query.first { $0.name == "token" }?.value
        }
    }

    func post(
        _ api: LocalAPI, _ path: String, key: String, _ body: String, headers: [(String, String)] = []
    ) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
        try await api.request(
            "POST", "/auth/v1\(path)",
            headers: [("apikey", key), ("Content-Type", "application/json"), ("X-Supabase-Api-Version", "2024-01-01")]
                + headers, body: Array(body.utf8))
    }

    static func code(_ body: [UInt8]) -> String? { (try? JSONValue(parsing: body))?["code"]?.stringValue }

    @Test func supabasesClientSignsUpConfirmsSignsInRefreshesUpdatesSignsOutAndRecovers() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let base = "http://127.0.0.1:\(api.port)"
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    "GATEHOUSE_STORE=\(cli.storeFile)", "SIGNING_KEYS_FILE=\(cli.keysFile)", PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/supabase_flow.py").path,
                    base, try await apiKey(), GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path,
                    "ada@example.com",
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record("the client run failed (supabase-auth comes from .ci/run): \(run.standardError)")
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            #expect(
                seen["signUp"] == [
                    "hasSession": false, "email": "ada@example.com", "confirmed": false,
                    "metadata": ["name": "Ada", "lang": "en"],
                ])
            #expect(seen["weak"] == ["code": "weak_password", "status": 422, "reasons": ["pwned"]])
            #expect(seen["unconfirmed"]?["code"] == "email_not_confirmed")
            #expect(seen["confirmationLinks"] == 1 && seen["confirmationRedirect"] == .string(base + "/welcome"))
            #expect(seen["verified"] == ["hasSession": true, "confirmed": true])
            #expect(seen["replayedConfirmation"]?["code"] == "otp_expired")
            #expect(seen["passwordBeforeSet"]?["code"] == "invalid_credentials", "the sign-up's password is dropped")
            #expect(seen["wrongPassword"]?["code"] == "invalid_credentials")
            let user = try #require(seen["user"])
            #expect(
                user["email"] == "ada@example.com" && user["aud"] == "authenticated" && user["role"] == "authenticated")
            #expect(user["provider"] == "email" && user["providers"] == ["email"] && user["identities"] == ["email"])
            #expect(user["metadata"] == ["name": "Ada", "lang": "en"] && user["lastSignIn"] == true)
            #expect(user["tokenType"] == "bearer" && user["expiresIn"] == 300)
            #expect(seen["refresh"] == ["newAccessToken": true, "newRefreshToken": true, "sameUser": true])
            #expect(seen["reusedRefresh"]?["code"] == "refresh_token_already_used")
            #expect(seen["afterReuse"]?["code"] == "session_not_found")
            #expect(seen["updated"] == ["name": "Ada", "lang": "ar"])
            #expect(seen["oldPassword"]?["code"] == "invalid_credentials")
            #expect(seen["afterSignOut"]?["code"] == "session_not_found")
            #expect(seen["newPassword"] == true)
            #expect(seen["recoveryLinks"] == 1)
            #expect(seen["recoveryRedirect"] == .string(base + "/reset") && seen["recovered"] == true)
            #expect(seen["replayedRecovery"]?["code"] == "otp_expired" && seen["afterRecovery"] == true)
            #expect(seen["passwordAmr"] == ["password"])
            #expect(seen["changeAnswer"] == "ada@example.com")
            #expect(seen["resendChange"] == [nil, nil] && seen["resentLinks"] == [1, 1])
            #expect(seen["changeHalf"] == ["hasSession": false, "email": "ada@example.com"])
            #expect(seen["changeDone"] == ["hasSession": false, "email": "new.ada@example.com"])
            #expect(seen["oldAddressTold"] == true && seen["signInAtNewAddress"] == true)
            #expect(seen["wrongCode"]?["code"] == "otp_expired")
            #expect(seen["byCode"] == ["hasSession": true, "email": "code.ada@example.com", "confirmed": true])
            #expect(seen["byCodePassword"]?["code"] == "invalid_credentials")
            #expect(seen["signUpCodePassword"] == true)
            #expect(seen["unknownKey"] == ["code": "invalid_api_key", "status": 401, "message": "Invalid API key"])

            // The store holds a scrypt hash, never the password; no log line holds a password, a
            // hash, a link's token or a session's token.
            let userID = try #require(user["id"]?.stringValue)
            let passwords = try await cli.run(["db", "get", "Passwords", userID]).stdoutText
            // (At the cost LocalAPI gives the functions, PASSWORD_HASH_COST.)
            #expect(passwords.contains("$scrypt$ln=10,r=8,p=1$") && !passwords.contains("passphrase"))
            let log = api.log
            for secret in ["correct horse battery", "a brand new passphrase", "recovered passphrase 42", "$scrypt$"] {
                #expect(!log.contains(secret), "\(secret)")
            }
            // A link's token is in one line: start-api's local notice of the email (its outbox).
            for token in try await tokens("ada@example.com", type: "signup")
                + tokens("ada@example.com", type: "recovery")
            {
                let lines = log.split(separator: "\n").filter { $0.contains(token) }
                #expect(lines.count == 1 && lines.allSatisfy { $0.hasPrefix("✉ ada@example.com: ") })
            }
            #expect(!log.contains("eyJ"), "no JWT in the log")
        }
    }

    /// Signing up or recovering an address with an account answers as for one without: the
    /// same status, headers and bytes, apart from the date, the request id, and the random id
    /// and the time a sign-up's answer carries whoever asks.
    @Test func signUpAndRecoveryAnswersDoNotTellWhetherAnAddressHasAnAccount() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            func comparable(_ answer: (status: Int, headers: [(String, String)], body: [UInt8])) throws -> String {
                var text = String(decoding: answer.body, as: UTF8.self)
                for pattern in [
                    #"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#, #"\d{4}-\d\d-\d\dT[0-9:.]{12}Z"#,
                ] {
                    text = text.replacingOccurrences(of: pattern, with: "…", options: .regularExpression)
                }
                let headers = answer.headers.filter { !["date", "apigw-requestid"].contains($0.0) }
                return "\(answer.status) \(headers.map { "\($0.0): \($0.1)" }) \(text)"
            }
            let signUp = #"{"email":"ada@example.com","password":"correct horse battery","data":{"plan":"pro"}}"#
            let new = try await post(api, "/signup", key: key, signUp)
            let again = try await post(api, "/signup", key: key, signUp)
            #expect(new.status == 200)
            #expect(try comparable(new) == comparable(again))
            #expect(new.body != again.body, "the ids differ: the second is no one's")
            // Still pending, the second sign-up replaced the first: its own email, the first's dead.
            let confirmations = try await tokens("ada@example.com", type: "signup")
            #expect(confirmations.count == 2)
            let stale = try await post(
                api, "/verify", key: key, #"{"type":"signup","token_hash":"\#(confirmations[0])"}"#)
            #expect(Self.code(stale.body) == "otp_expired")
            // Confirmed, the address still answers the same, and no new email goes out.
            let confirm = try #require(confirmations.last)
            #expect(
                try await post(api, "/verify", key: key, #"{"type":"signup","token_hash":"\#(confirm)"}"#).status == 200
            )
            let confirmed = try await post(api, "/signup", key: key, signUp)
            #expect(try comparable(confirmed) == comparable(new))
            #expect(try await tokens("ada@example.com", type: "signup").count == 2)

            let known = try await post(api, "/recover", key: key, #"{"email":"ada@example.com"}"#)
            let unknown = try await post(api, "/recover", key: key, #"{"email":"nobody@example.com"}"#)
            #expect(known.status == 200 && String(decoding: known.body, as: UTF8.self) == "{}")
            #expect(try comparable(known) == comparable(unknown) && known.body == unknown.body)
            // The email goes out after the answer.
            #expect(
                try await eventuallyAwaiting(10) { try await tokens("ada@example.com", type: "recovery").count == 1 })
            #expect(try await tokens("nobody@example.com", type: "recovery").isEmpty)
        }
    }

    @Test func theLinkRedirectsWithTheSessionInTheFragmentOnlyToTheAppAndOnlyOnce() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            let base = "http://127.0.0.1:\(api.port)"
            let outside = try await api.request(
                "POST", "/auth/v1/signup?redirect_to=https%3A%2F%2Fevil.example%2F",
                headers: [("apikey", key), ("Content-Type", "application/json")],
                body: Array(#"{"email":"ada@example.com","password":"correct horse battery"}"#.utf8))
            #expect(outside.status == 400 && Self.code(outside.body) == nil)
            #expect(try JSONValue(parsing: outside.body)["error_code"] == "validation_failed")
            #expect(try await tokens("ada@example.com", type: "signup").isEmpty)

            _ = try await post(
                api, "/signup", key: key, #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            let token = try #require(try await tokens("ada@example.com", type: "signup").first)
            // Another site as redirect_to: refused, and the link is not used up by it.
            let elsewhere = try await api.request(
                "GET", "/auth/v1/verify?token=\(token)&type=signup&redirect_to=https%3A%2F%2Fevil.example%2F")
            #expect(elsewhere.status == 400)
            // The link's GET uses nothing: a page whose button POSTs it, whoever fetches it.
            let page = try await api.request("GET", "/auth/v1/verify?token=\(token)&type=signup")
            #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains(#"action="verify""#))
            let clicked = try await api.click("/auth/v1/verify?token=\(token)&type=signup")
            #expect(clicked.status == 303)
            let location = try #require(clicked.headers.first { $0.0 == "location" }?.1)
            #expect(location.hasPrefix(base + "/#access_token=eyJ"))
            for member in ["expires_in=300", "token_type=bearer", "type=signup", "refresh_token="] {
                #expect(location.contains(member))
            }
            let again = try await api.click("/auth/v1/verify?token=\(token)&type=signup")
            #expect(
                again.headers.first { $0.0 == "location" }?.1
                    == base
                    + "/#error=access_denied&error_code=otp_expired&error_description=Email%20link%20is%20invalid%20or%20has%20expired"
            )
            let unknown = try await api.request(
                "GET", "/auth/v1/verify?token=\(String(repeating: "x", count: 64))&type=signup")
            #expect(unknown.status == 400 && String(decoding: unknown.body, as: UTF8.self).contains("not valid"))
            // Without the app's key, nothing is answered but the refusal.
            for path in ["/signup", "/token?grant_type=password", "/recover", "/otp", "/verify", "/logout"] {
                let refused = try await post(api, path, key: "gh_pk_nope_demo", #"{"email":"ada@example.com"}"#)
                #expect(refused.status == 401 && Self.code(refused.body) == "invalid_api_key", "\(path)")
            }
        }
    }

    /// Confirmed password accounts for `addresses` on `api`, their password set from the
    /// session each confirmation started (a confirmation drops the sign-up's password).
    func confirmedAccounts(_ addresses: [String], api: LocalAPI, key: String) async throws {
        for address in addresses {
            let password = #""password":"correct horse battery""#
            _ = try await post(api, "/signup", key: key, #"{"email":"\#(address)",\#(password)}"#)
            let token = try #require(try await tokens(address, type: "signup").last)
            let session = try JSONValue(
                parsing: try await post(api, "/verify", key: key, #"{"type":"signup","token_hash":"\#(token)"}"#).body)
            let access = try #require(session["access_token"]?.stringValue)
            let set = try await api.request(
                "PUT", "/auth/v1/user",
                headers: [
                    ("apikey", key), ("Authorization", "Bearer \(access)"), ("Content-Type", "application/json"),
                ],
                body: Array("{\(password)}".utf8))
            #expect(set.status == 200)
        }
    }

    func signIn(_ api: LocalAPI, key: String, _ address: String, _ password: String) async throws -> Int {
        try await post(
            api, "/token?grant_type=password", key: key, #"{"email":"\#(address)","password":"\#(password)"}"#
        ).status
    }

    /// The 6th password try in 15 minutes is refused, right password or not; the 5th is not.
    @Test func fiveWrongPasswordsLockTheAccount() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            try await confirmedAccounts(["four@example.com", "five@example.com"], api: api, key: key)
            for _ in 0..<4 { #expect(try await signIn(api, key: key, "four@example.com", "wrong guess") == 400) }
            #expect(try await signIn(api, key: key, "four@example.com", "correct horse battery") == 200)
            for _ in 0..<5 { #expect(try await signIn(api, key: key, "five@example.com", "wrong guess") == 400) }
            #expect(try await signIn(api, key: key, "five@example.com", "correct horse battery") == 400)
        }
    }

    /// 20 racing wrong tries lock the account as well (the lock is in the store), and the 31st
    /// failure from one address in 5 minutes is a 429.
    @Test func twentyRacingWrongPasswordsLockTheAccountAndTheSourceIsLimited() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            try await confirmedAccounts(["race@example.com"], api: api, key: key)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask { try await signIn(api, key: key, "race@example.com", "wrong guess \(index)") }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 400, count: 20))
            #expect(try await signIn(api, key: key, "race@example.com", "correct horse battery") == 400)
            let lockKey =
                "password-lock:"
                + SHA256.hash(data: Data("race@example.com".utf8)).map { String(format: "%02x", $0) }.joined()
            #expect(try await cli.run(["db", "get", "RateLimits", lockKey]).stdoutText.contains("until"))
            // 21 failures so far from 127.0.0.1: 9 more are answered, the next is limited.
            for index in 0..<9 { #expect(try await signIn(api, key: key, "other\(index)@example.com", "guess") == 400) }
            let limited = try await post(
                api, "/token?grant_type=password", key: key, #"{"email":"late@example.com","password":"guess"}"#)
            #expect(limited.status == 429 && Self.code(limited.body) == "over_request_rate_limit")
            #expect(limited.headers.contains { $0.0 == "retry-after" })
        }
    }

    /// An app registered to redeem codes only through its backend (`--redeem backend`) gets no
    /// session through `/auth/v1` either: its password grant is refused before any password is
    /// compared, right or wrong alike (Supabase's 400 `provider_disabled`: its public sign-ins
    /// are off), and no session is written. (It started public sessions.)
    @Test func aBackendOnlyAppGetsNoPublicSession() async throws {
        let added = try await cli.run(["apps", "add", "--id", "bank", "--name", "Bank", "--redeem", "backend"])
        #expect(added.status == 0, "\(added.stderr)")
        try await LocalAPI.with(cli: cli) { api in
            try await confirmedAccounts(["teller@example.com"], api: api, key: try await apiKey())
            let sessions = try await cli.run(["db", "scan", "Sessions"]).stdoutText
            let bank = try await Self.apiKey(cli, app: "bank")
            for password in ["correct horse battery", "a wrong guess"] {
                let refused = try await post(
                    api, "/token?grant_type=password", key: bank,
                    #"{"email":"teller@example.com","password":"\#(password)"}"#)
                #expect(refused.status == 400 && Self.code(refused.body) == "provider_disabled")
            }
            #expect(try await cli.run(["db", "scan", "Sessions"]).stdoutText == sessions)
        }
    }

    /// A malformed address at the password grant is refused at once, without a password hash,
    /// and counted against the source like any failed try: the 31st from one address in 5
    /// minutes is a 429. (Each once cost a full scrypt hash, and none was counted.)
    @Test func malformedAddressesAtThePasswordGrantAreCheapAndCounted() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            for _ in 0..<30 {
                let refused = try await post(
                    api, "/token?grant_type=password", key: key, #"{"email":"x","password":"guess"}"#)
                #expect(refused.status == 400 && Self.code(refused.body) == "email_address_invalid")
            }
            let limited = try await post(
                api, "/token?grant_type=password", key: key, #"{"email":"x","password":"guess"}"#)
            #expect(limited.status == 429 && Self.code(limited.body) == "over_request_rate_limit")
        }
    }

    /// `/auth/refresh` and Supabase's refresh grant count against one limit per user (10 a
    /// minute): past it, both answer 429. (The grant was never limited: after `/auth/refresh`'s
    /// 429, fifteen more refreshes of the same session went through it.)
    @Test func bothRefreshRoutesShareOneLimit() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            try await confirmedAccounts(["fresh@example.com"], api: api, key: key)
            let signedIn = try await post(
                api, "/token?grant_type=password", key: key,
                #"{"email":"fresh@example.com","password":"correct horse battery"}"#)
            var token = try #require(try JSONValue(parsing: signedIn.body)["refresh_token"]?.stringValue)
            for round in 0..<5 {
                let own = try await api.request(
                    "POST", "/auth/refresh", headers: [("Content-Type", "application/json")],
                    body: Array(#"{"refreshToken":"\#(token)"}"#.utf8))
                #expect(own.status == 200, "round \(round)")
                token = try #require(try JSONValue(parsing: own.body)["refreshToken"]?.stringValue)
                let supabase = try await post(
                    api, "/token?grant_type=refresh_token", key: key, #"{"refresh_token":"\#(token)"}"#)
                #expect(supabase.status == 200, "round \(round)")
                token = try #require(try JSONValue(parsing: supabase.body)["refresh_token"]?.stringValue)
            }
            let limited = try await post(
                api, "/token?grant_type=refresh_token", key: key, #"{"refresh_token":"\#(token)"}"#)
            #expect(limited.status == 429 && Self.code(limited.body) == "over_request_rate_limit")
            let own = try await api.request(
                "POST", "/auth/refresh", headers: [("Content-Type", "application/json")],
                body: Array(#"{"refreshToken":"\#(token)"}"#.utf8))
            #expect(own.status == 429)
        }
    }

    /// Malformed requests get Supabase's 400s and change nothing.
    @Test func badRequestsAreRefusedInSupabasesShapeAndChangeNothing() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            let cases: [(String, String, String)] = [
                ("/signup", "{not json", "bad_json"), ("/signup", "[1, 2]", "validation_failed"),
                ("/signup", #"{"email":"ada@example.com"}"#, "validation_failed"),
                ("/signup", #"{"email":"not-an-address","password":"correct horse battery"}"#, "email_address_invalid"),
                (
                    "/signup", #"{"email":"ada@example.com","password":"correct horse battery","data":[1]}"#,
                    "validation_failed"
                ),
                (
                    "/signup", #"{"email":"ada@example.com","password":"\#(String(repeating: "p", count: 1100))"}"#,
                    "validation_failed"
                ),
                (
                    "/signup",
                    #"{"email":"ada@example.com","password":"x","pad":"\#(String(repeating: "x", count: 17000))"}"#,
                    "validation_failed"
                ),
                ("/token?grant_type=magic", #"{"email":"ada@example.com"}"#, "validation_failed"),
                // `invite` is an invitation's link now (the admin API's): a type Supabase has not.
                ("/verify", #"{"type":"invitation","token_hash":"x"}"#, "validation_failed"),
                ("/verify", #"{"type":"signup"}"#, "validation_failed"),
                ("/logout?scope=everyone", "{}", "no_authorization"),
            ]
            for (path, body, code) in cases {
                let answer = try await post(api, path, key: key, body)
                #expect(answer.status == 400 || answer.status == 401, "\(path) \(body.prefix(60))")
                #expect(Self.code(answer.body) == code, "\(path) \(body.prefix(60))")
            }
            #expect(try await cli.run(["db", "scan", "Users"]).stdoutText.isEmpty)
            #expect(try await cli.run(["db", "scan", "Passwords"]).stdoutText.isEmpty)
            #expect(try await tokens("ada@example.com", type: "signup").isEmpty)
        }
    }

    /// One user and session model under both APIs: a password account signs in by magic link
    /// too, and each API refreshes the other's session.
    @Test func bothAPIsShareTheUserAndItsSessions() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            _ = try await post(
                api, "/signup", key: key, #"{"email":"ada@example.com","password":"correct horse battery"}"#)
            let token = try #require(try await tokens("ada@example.com", type: "signup").first)
            let supabase = try JSONValue(
                parsing: try await post(api, "/verify", key: key, #"{"type":"signup","token_hash":"\#(token)"}"#).body)
            let userID = try #require(supabase["user"]?["id"]?.stringValue)

            // Gatehouse's own magic link signs in the same user, and its profile route reads it.
            let (status, accessToken) = try await api.signIn("ada@example.com", cli: cli)
            #expect(status == 200)
            let profile = try await api.request(
                "GET", "/users/me", headers: [("Authorization", "Bearer \(try #require(accessToken))")])
            #expect(try JSONValue(parsing: profile.body)["id"] == .string(userID))

            // A Supabase session refreshes through /auth/refresh, and back through /auth/v1/token.
            let refreshed = try await api.request(
                "POST", "/auth/refresh", headers: [("Content-Type", "application/json")],
                body: Array(#"{"refreshToken":"\#(try #require(supabase["refresh_token"]?.stringValue))"}"#.utf8))
            #expect(refreshed.status == 200)
            let gatehouseToken = try #require(try JSONValue(parsing: refreshed.body)["refreshToken"]?.stringValue)
            let back = try await post(
                api, "/token?grant_type=refresh_token", key: key, #"{"refresh_token":"\#(gatehouseToken)"}"#)
            #expect(back.status == 200)
            #expect(try JSONValue(parsing: back.body)["user"]?["id"] == .string(userID))
        }
    }
}
