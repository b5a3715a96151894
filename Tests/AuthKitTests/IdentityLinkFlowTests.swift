import AuthKit
import Foundation
import JOSE
import Testing

/// `IdentityLinkFlow`'s pieces: a handle works once, and a code that ends a link is redeemed
/// only where the link is made.
struct IdentityLinkFlowTests {
    @Test func aHandleIsTakenOnceAndExpires() async throws {
        let clock = TestClock(SessionFixtures.start)
        let links = IdentityLinkFlow(store: try SessionFixtures.store(clock: clock), clock: clock)
        let start = IdentityLinkFlow.Start(
            userID: "user-1", app: "demo", provider: "google", challenge: String(repeating: "c", count: 43),
            redirectTo: "http://127.0.0.1:3000/welcome")
        let handle = try await links.handle(for: start)
        #expect(try await links.take(handle) == start)
        #expect(try await links.take(handle) == nil)
        let late = try await links.handle(for: start)
        clock.set(clock.now + IdentityLinkFlow.lifetime)
        #expect(try await links.take(late) == nil)
    }

    @Test func aLinksCodeSignsNoOneInAtTheExchangeOrTheBackend() async throws {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        let service = SessionService(
            store: store, clock: clock, settings: SessionSettings(issuer: "http://127.0.0.1:3000"),
            keys: try SigningKeySet.generate())
        try await AppRegistry(store: store).ensureDemoApp()
        let (user, _) = try await service.users.findOrCreate(email: try #require(EmailAddress("ada@example.com")))
        let verifier = String(repeating: "v", count: 43)
        let code = try await FlowCodes(store: store, clock: clock).mint(
            user: user, app: "demo", provider: "google", challenge: PKCE.challenge(for: verifier),
            linking: .provider("google", subject: "g-1"))
        await #expect(throws: SessionError.invalidCode) {
            _ = try await service.exchange(code: code, app: "demo", codeVerifier: verifier)
        }
        #expect(try await AuthCodes(store: store, clock: clock).peek(code) == nil, "spent")
    }
}
