import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// The PKCE flows' auth codes (`FlowCodes`) and the challenges that start them
/// (`PKCE.flowChallenge`), on a real store file with a clock the tests set.
struct FlowCodesTests {
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    struct Setup {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let flows: FlowCodes
        let user: User

        init() async throws {
            store = try SessionFixtures.store(clock: clock)
            flows = FlowCodes(store: store, clock: clock)
            let email = try #require(EmailAddress("ada@example.com"))
            user = try await UserDirectory(store: store, clock: clock).findOrCreate(email: email, name: "Ada").user
        }

        func mint() async throws -> String {
            try await flows.mint(user: user, app: "demo", provider: "email", challenge: FlowCodesTests.challenge)
        }

        func redeem(
            _ code: String, verifier: String = FlowCodesTests.verifier, app: String = "demo",
            from source: String? = "192.0.2.1"
        ) async throws -> AuthCodeGrant {
            try await flows.redeem(code: code, verifier: verifier, app: app, sourceIP: source)
        }
    }

    @Test func aChallengeIsS256OrPlainAndComesWithItsMethod() throws {
        #expect(try PKCE.flowChallenge(nil, method: nil) == nil)
        #expect(try PKCE.flowChallenge("", method: "") == nil)
        #expect(try PKCE.flowChallenge(Self.challenge, method: "s256") == Self.challenge)
        #expect(try PKCE.flowChallenge(Self.challenge, method: "S256") == Self.challenge)
        // A plain challenge is its verifier: the flow keeps its S256, and the verifier matches it.
        let plain = try #require(try PKCE.flowChallenge(Self.verifier, method: "plain"))
        #expect(plain == Self.challenge && PKCE.verifies(Self.verifier, challenge: plain))
        let refusals: [(String?, String?)] = [
            (Self.challenge, nil), (nil, "s256"), (Self.challenge, "S512"), ("short", "s256"), ("short", "plain"),
            (Self.challenge + "=", "s256"), (String(repeating: "a", count: 129), "plain"),
        ]
        for (challenge, method) in refusals {
            #expect(throws: FlowError.self, "\(challenge ?? "nil") \(method ?? "nil")") {
                try PKCE.flowChallenge(challenge, method: method)
            }
        }
    }

    @Test func aCodeGivesItsGrantOnceWithItsVerifierAndIsStoredAsAHash() async throws {
        let setup = try await Setup()
        let code = try await setup.mint()
        let stored = try await setup.store.scan("AuthCodes", limit: nil)
        #expect(stored.map { $0["code"] } == [.string(AuthCodes.hash(code))])
        #expect(!JSONValue.object(stored[0]).serialized.contains(code))

        let grant = try await setup.redeem(code)
        #expect(grant.userID == setup.user.id && grant.app == "demo" && grant.codeChallenge == Self.challenge)
        #expect(grant.expiresAt == (SessionFixtures.start + 300) * 1000)
        await #expect(throws: FlowError.notFound) { try await setup.redeem(code) }
        await #expect(throws: FlowError.missingCodeOrVerifier) { try await setup.redeem("", verifier: "x") }
        await #expect(throws: FlowError.missingCodeOrVerifier) { try await setup.redeem(code, verifier: "") }
    }

    @Test func anotherVerifierOrAnotherAppSpendsTheCode() async throws {
        let setup = try await Setup()
        let code = try await setup.mint()
        await #expect(throws: FlowError.badVerifier) {
            try await setup.redeem(code, verifier: String(repeating: "a", count: 43))
        }
        await #expect(throws: FlowError.notFound) { try await setup.redeem(code) }

        let other = try await setup.mint()
        await #expect(throws: FlowError.notFound) { try await setup.redeem(other, app: "another") }
        await #expect(throws: FlowError.notFound) { try await setup.redeem(other) }
    }

    @Test func aCodeExpiresAfterFiveMinutesAndSaysSo() async throws {
        let setup = try await Setup()
        let code = try await setup.mint()
        let late = try await setup.mint()
        setup.clock.set(SessionFixtures.start + 299)
        #expect(try await setup.redeem(code).userID == setup.user.id)
        setup.clock.set(SessionFixtures.start + 300)
        await #expect(throws: FlowError.expired) { try await setup.redeem(late) }
        await #expect(throws: FlowError.notFound) { try await setup.redeem(late) }
    }

    /// A code bound to no challenge (an implicit flow's) is not a PKCE flow's.
    @Test func aCodeWithoutAChallengeIsNoFlows() async throws {
        let setup = try await Setup()
        let code = try await AuthCodes(store: setup.store, clock: setup.clock).mint(
            app: "demo", user: setup.user, provider: "email", isNewUser: false)
        await #expect(throws: FlowError.notFound) { try await setup.redeem(code) }
    }

    @Test func twentyRacingExchangesOfOneCodeGiveOneGrant() async throws {
        let setup = try await Setup()
        let code = try await setup.mint()
        let granted = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask { (try? await setup.redeem(code, from: "192.0.2.\(index)")) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(granted == 1)
    }

    /// 30 bad codes an hour per source; a good code is given back, so sign-ins never fill it.
    @Test func badCodesAreLimitedPerSource() async throws {
        let setup = try await Setup()
        for _ in 0..<5 { _ = try await setup.redeem(try await setup.mint()) }
        for index in 0..<30 {
            await #expect(throws: FlowError.notFound) { try await setup.redeem("made-up-\(index)") }
        }
        let code = try await setup.mint()
        await #expect(throws: SignInError.self) { try await setup.redeem(code) }
        // Another source is not limited, and the limited one's refusal did not spend the code.
        #expect(try await setup.redeem(code, from: "198.51.100.7").userID == setup.user.id)
        setup.clock.set(SessionFixtures.start + 3600)
        #expect(try await setup.redeem(try await setup.mint()).userID == setup.user.id)
    }
}
