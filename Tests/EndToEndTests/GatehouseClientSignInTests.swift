import Foundation
import GatehouseClient
import GatehouseJSON
import Testing

/// `GatehouseClient` takes every sign-in that answers with a session, against start-api and the
/// real functions: a phone code, Sign in with Apple, an email and password, and an answer the
/// app got itself; it keeps the refresh token's expiry and signs out, without a call, once it
/// is past. The client's clock is moved instead of waited for.
@Suite(.serialized)
struct GatehouseClientSignInTests {
    let cli = GatehouseCLI()

    static let sessionFunctions = [
        "OtpVerify", "VerifyApple", "SupabaseToken", "SupabaseVerify", "Refresh", "Exchange",
    ]

    func withClient(
        _ body: (LocalAPI, GatehouseClient, GatehouseClientTests.Clock) async throws -> Void
    )
        async throws
    {
        var variables: [String: [String: String]] = [:]
        for function in Self.sessionFunctions { variables[function] = GatehouseClientTests.hourLongTokens }
        try await LocalAPI.with(cli: cli, variables: variables) { api in
            let clock = GatehouseClientTests.Clock()
            let client = GatehouseClient(
                baseURL: URL(string: "http://127.0.0.1:\(api.port)")!, app: "demo", now: { clock.now })
            try await body(api, client, clock)
        }
    }

    func refreshes(_ api: LocalAPI) -> Int {
        api.log.split(separator: "\n").filter { $0.hasPrefix("POST /auth/refresh ") }.count
    }

    /// The last secret (code or link) the outbox holds for `recipient`.
    func lastSecret(_ recipient: String) async throws -> String {
        let run = try await cli.run(["outbox", "--json", "--to", recipient])
        let last = try #require(run.stdoutText.split(separator: "\n").last)
        return try #require(try JSONValue(parsing: Array(last.utf8))["secret"]?.stringValue)
    }

    @Test func aPhoneSignInIsKeptAndRefreshed() async throws {
        try await withClient { api, client, clock in
            let number = "+14155550142"
            try await client.requestPhoneCode(phoneNumber: "(415) 555-0142", countryCode: "US")
            let code = try await lastSecret(number)
            do {
                try await client.signIn(phoneNumber: number, code: code == "000000" ? "000001" : "000000")
                Issue.record("a wrong code should be refused")
            } catch GatehouseClientError.refused(let status, let error, _) {
                #expect(status == 401 && error == "invalid_code")
            }
            #expect(try await client.tokens == nil)
            let user = try await client.signIn(phoneNumber: number, code: code, name: "Ada")
            #expect(user.phoneNumber == number && user.provider == "phone" && user.isNewUser && user.name == "Ada")
            #expect(try await client.tokens?.refreshTokenExpiresAt == nil, "the phone answer does not say")
            let token = try await client.accessToken()
            let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(token)")])
            #expect(profile.status == 200)
            clock.advance(by: 3301)
            #expect(try await client.accessToken() != token)
            #expect(refreshes(api) == 1)
            let kept = try #require(try await client.tokens)
            #expect(kept.refreshTokenExpiresAt != nil, "the refresh told")
            #expect(kept.user.phoneNumber == number)
        }
    }

    @Test func anAppleSignInIsKeptAndSignsOutOnceItsRefreshTokenEnds() async throws {
        try await withClient { api, client, clock in
            let run = try await cli.run(
                ["dev", "apple-token", "--sub", "001.client", "--email", "apple@example.com", "--nonce", "n-client"])
            #expect(run.status == 0, "\(run.stderr)")
            let user = try await client.signInWithApple(
                identityToken: run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), authorizationCode: "c",
                user: "001.client", givenName: "Ada", familyName: "Lovelace", nonce: "n-client")
            #expect(user.provider == "apple" && user.email == "apple@example.com" && user.name == "Ada Lovelace")
            let tokens = try #require(try await client.tokens)
            let end = try #require(tokens.refreshTokenExpiresAt)
            #expect(abs(end.timeIntervalSince(clock.now) - 86400) < 120)
            _ = try await client.accessToken()
            // Past the refresh token's end: signed out, without asking the server.
            clock.advance(by: 86401)
            await #expect(throws: GatehouseClientError.signedOut) { try await client.accessToken() }
            #expect(refreshes(api) == 0)
            #expect(try await client.tokens == nil)
        }
    }

    @Test func aPasswordSignInAndAnAnswerTheAppGotItself() async throws {
        try await withClient { api, client, clock in
            let apps = try await cli.run(["apps", "list"])
            let demo = try apps.stdoutText.split(separator: "\n").map { try JSONValue(parsing: Array($0.utf8)) }
                .first { $0["id"] == "demo" }
            let key = try #require(demo?["publishableKey"]?.stringValue)
            func supabase(
                _ path: String, _ body: String, method: String = "POST", bearer: String? = nil
            ) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
                try await api.request(
                    method, "/auth/v1\(path)",
                    headers: [("apikey", key), ("Content-Type", "application/json")]
                        + (bearer.map { [("Authorization", "Bearer \($0)")] } ?? []), body: Array(body.utf8))
            }
            let address = "client-\(UUID().uuidString.prefix(6))@example.com"
            let password = "correct horse battery staple"
            #expect(try await supabase("/signup", #"{"email":"\#(address)","password":"\#(password)"}"#).status == 200)
            let link = try await lastSecret(address)
            let hash = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value)
            // The confirmation answers with a session in Supabase's shape, which the app hands over;
            // the link proves the mailbox only, so the owner then sets the password.
            let confirmed = try await supabase("/verify", #"{"type":"signup","token_hash":"\#(hash)"}"#)
            #expect(confirmed.status == 200)
            let confirmedUser = try await client.signIn(with: try GatehouseSession(answer: Data(confirmed.body)))
            #expect(confirmedUser.email == address)
            let set = try await supabase(
                "/user", #"{"password":"\#(password)"}"#, method: "PUT", bearer: try await client.accessToken())
            #expect(set.status == 200, "\(String(decoding: set.body, as: UTF8.self))")
            try await client.signOut()

            await #expect(throws: GatehouseClientError.self) {
                try await client.signIn(email: address, password: "wrong password", apiKey: key)
            }
            let user = try await client.signIn(email: address, password: password, apiKey: key)
            #expect(user.email == address && user.provider == "email")
            let token = try await client.accessToken()
            #expect(
                try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(token)")]).status == 200
            )
            clock.advance(by: 3301)
            #expect(try await client.accessToken() != token)
            #expect(refreshes(api) == 1)

            // The app signs in through a route of its own and hands over the answer.
            let code = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", "own@example.com"])
            let answer = try await api.request(
                "POST", "/auth/exchange", headers: [("Content-Type", "application/json")],
                body: Array(
                    #"{"code":"\#(code.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))","app":"demo"}"#.utf8
                ))
            #expect(answer.status == 200)
            let own = try await client.signIn(with: try GatehouseSession(answer: Data(answer.body)))
            #expect(own.email == "own@example.com")
            #expect(try await client.tokens?.refreshTokenExpiresAt != nil)
            #expect(throws: GatehouseClientError.malformedAnswer(status: 200)) {
                try GatehouseSession(answer: Data(#"{"success":true}"#.utf8))
            }
        }
    }
}
