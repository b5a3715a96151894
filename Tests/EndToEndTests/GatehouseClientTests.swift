import Foundation
import GatehouseClient
import GatehouseJSON
import Synchronization
import Testing

/// `GatehouseClient` against start-api and the real functions: sign-in with a code, the kept
/// access token, one refresh for 100 concurrent callers near expiry, reuse detection, sign-out.
/// Access tokens last an hour here, and the client's clock is moved instead of waited for.
@Suite(.serialized)
struct GatehouseClientTests {
    let cli = GatehouseCLI()

    /// The client's clock, moved by the test.
    final class Clock: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
        var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    }

    static let hourLongTokens = ["ACCESS_TOKEN_TTL_SECONDS": "3600", "REFRESH_TOKEN_TTL_SECONDS": "86400"]

    func withSignedInClient(
        _ body: (LocalAPI, GatehouseClient, InMemoryTokenStore, Clock) async throws -> Void
    ) async throws {
        try await LocalAPI.with(
            cli: cli, variables: ["Exchange": Self.hourLongTokens, "Refresh": Self.hourLongTokens]
        ) { api in
            let clock = Clock()
            let store = InMemoryTokenStore()
            let client = GatehouseClient(
                baseURL: URL(string: "http://127.0.0.1:\(api.port)")!, app: "demo", tokenStore: store,
                now: { clock.now })
            let code = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", "ada@example.com"])
            let user = try await client.signIn(
                withCode: code.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(user.email == "ada@example.com" && user.isNewUser)
            try await body(api, client, store, clock)
        }
    }

    func refreshes(_ api: LocalAPI) -> Int {
        api.log.split(separator: "\n").filter { $0.hasPrefix("POST /auth/refresh ") }.count
    }

    @Test func theKeptTokenIsHandedOutAndWorksUntilItNearsItsEnd() async throws {
        try await withSignedInClient { api, client, store, clock in
            let token = try await client.accessToken()
            #expect(try await client.accessToken() == token)
            #expect(try await store.load()?.accessToken == token)
            let profile = try await api.request("GET", "/users/me", headers: [("Authorization", "Bearer \(token)")])
            #expect(profile.status == 200)
            #expect(refreshes(api) == 0)
            // 55 minutes on, 5 remain: the next token is a refreshed one.
            clock.advance(by: 3300 + 1)
            let next = try await client.accessToken()
            #expect(next != token && refreshes(api) == 1)
            #expect(try await client.user?.email == "ada@example.com")
        }
    }

    @Test func aHundredConcurrentCallersNearExpiryShareOneRefresh() async throws {
        try await withSignedInClient { api, client, _, clock in
            let first = try await client.accessToken()
            clock.advance(by: 3400)
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 { group.addTask { try await client.accessToken() } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1 && !tokens.contains(first))
            #expect(refreshes(api) == 1)
        }
    }

    @Test func aRefreshTokenReusedElsewhereSignsTheClientOut() async throws {
        try await withSignedInClient { api, client, store, clock in
            // A copy of the client's refresh token is used twice elsewhere: the second use of
            // the family's newer token leaves the client's as a reused one.
            let stolen = try #require(try await store.load()?.refreshToken)
            var token = stolen
            for _ in 0..<2 {
                let answer = try await api.request(
                    "POST", "/auth/refresh", headers: [("Content-Type", "application/json")],
                    body: Array(#"{"refreshToken":"\#(token)"}"#.utf8))
                #expect(answer.status == 200)
                token = try #require(try JSONValue(parsing: answer.body)["refreshToken"]?.stringValue)
            }
            clock.advance(by: 3400)
            await #expect(throws: GatehouseClientError.signedOut) { try await client.accessToken() }
            #expect(try await store.load() == nil)
            #expect(try await client.user == nil)
            await #expect(throws: GatehouseClientError.signedOut) { try await client.accessToken() }
            // The session ended for the copy's holder too.
            let after = try await api.request(
                "POST", "/auth/refresh", headers: [("Content-Type", "application/json")],
                body: Array(#"{"refreshToken":"\#(token)"}"#.utf8))
            #expect(after.status == 401)
        }
    }

    @Test func signingOutEndsTheSessionAndForgetsTheTokens() async throws {
        try await withSignedInClient { api, client, store, _ in
            let refresh = try #require(try await store.load()?.refreshToken)
            try await client.signOut()
            #expect(try await store.load() == nil)
            await #expect(throws: GatehouseClientError.signedOut) { try await client.accessToken() }
            let after = try await api.request(
                "POST", "/auth/refresh", headers: [("Content-Type", "application/json")],
                body: Array(#"{"refreshToken":"\#(refresh)"}"#.utf8))
            #expect(after.status == 401)
            await #expect(
                throws: GatehouseClientError.refused(
                    status: 401, code: "invalid_code", message: "The code is invalid, already used or expired.")
            ) {
                try await client.signIn(withCode: "not-a-code")
            }
        }
    }
}
