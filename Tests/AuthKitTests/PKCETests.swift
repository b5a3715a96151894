import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import Store
import Testing

/// PKCE (S256) and the auth codes bound to a client's challenge.
struct PKCETests {
    /// RFC 7636, Appendix B.
    @Test func theRFCsExampleVerifierGivesItsChallenge() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        #expect(PKCE.challenge(for: verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.verifies(verifier, challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
        #expect(!PKCE.verifies(verifier, challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cN"))
        #expect(!PKCE.verifies("short", challenge: PKCE.challenge(for: "short")))
        #expect(PKCE.isValidChallenge("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
        #expect(!PKCE.isValidChallenge("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-c="))
        #expect(throws: SignInError.invalidField("codeChallenge", "must be an S256 challenge: 43 base64url characters"))
        {
            try PKCE.challenge(from: "plain-challenge")
        }
    }

    /// A bound code: refused without its verifier (and spent, so the rightful app's try then
    /// fails too); a fresh one works with the verifier, once.
    @Test func aBoundCodeNeedsItsVerifierAndIsSpentWithoutIt() async throws {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        try await AppRegistry(store: store).ensureDemoApp()
        let sessions = try SessionFixtures.sessions(store: store, clock: clock)
        let (user, _) = try await sessions.users.findOrCreate(email: EmailAddress("ada@example.com")!)
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let challenge = PKCE.challenge(for: verifier)

        let intercepted = try await sessions.codes.mint(
            app: "demo", user: user, provider: "email", isNewUser: false, codeChallenge: challenge)
        await #expect(throws: SessionError.invalidCode) { try await sessions.exchange(code: intercepted, app: "demo") }
        await #expect(throws: SessionError.invalidCode) {
            try await sessions.exchange(code: intercepted, app: "demo", codeVerifier: verifier)
        }

        let code = try await sessions.codes.mint(
            app: "demo", user: user, provider: "email", isNewUser: false, codeChallenge: challenge)
        await #expect(throws: SessionError.invalidCode) {
            try await sessions.exchange(code: code, app: "demo", codeVerifier: String(repeating: "a", count: 43))
        }
        let other = try await sessions.codes.mint(
            app: "demo", user: user, provider: "email", isNewUser: false, codeChallenge: challenge)
        #expect(try await sessions.exchange(code: other, app: "demo", codeVerifier: verifier).user.id == user.id)
        await #expect(throws: SessionError.invalidCode) {
            try await sessions.exchange(code: other, app: "demo", codeVerifier: verifier)
        }
        // A code minted without a challenge works as before, verifier or not.
        let plain = try await sessions.codes.mint(app: "demo", user: user, provider: "email", isNewUser: false)
        #expect(try await sessions.exchange(code: plain, app: "demo").user.id == user.id)
    }
}
