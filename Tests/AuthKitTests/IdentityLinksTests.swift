import AuthKit
import GatehouseJSON
import Store
import Testing

/// `linkIdentityWithIdToken`'s rules: a recent sign-in links (a stolen access token of an old
/// session does not, and its ID token is then not even checked), an anonymous user links
/// whenever, and the answer is a new session of the bearer's own user.
struct IdentityLinksTests {
    @Test func onlyARecentSignInOrAnAnonymousUserLinks() async throws {
        let fixture = try await PasswordAccountsTests.Fixture()
        let links = IdentityLinks(
            sessions: fixture.accounts.sessions, reauthentication: fixture.accounts.reauthentication)
        let (user, session) = try await fixture.confirmedAccount("ada@example.com")
        let anonymous = AnonymousSignIn(sessions: fixture.accounts.sessions, store: fixture.store, clock: fixture.clock)
        let (_, anonymousSession) = try await anonymous.signIn(metadata: [:], app: "demo", sourceIP: "192.0.2.1")
        let apple = SignInIdentity.provider("apple", subject: "001.ada")
        // An hour on: the confirmed user's session is no longer recent; the anonymous one's is let.
        let aged = try await fixture.aged(session)
        let agedAnonymous = try await fixture.aged(anonymousSession)
        var checked = 0
        await #expect(throws: AccountError.reauthenticationNeeded) {
            try await links.link(
                for: try await fixture.bearer(aged), app: "demo", provider: "apple", sourceIP: nil
            ) {
                checked += 1
                return apple
            }
        }
        #expect(checked == 0, "the ID token is not checked (nor spent) for a refused caller")
        let (permanent, _) = try await links.link(
            for: try await fixture.bearer(agedAnonymous), app: "demo", provider: "google", sourceIP: nil
        ) { .provider("google", subject: "g-1") }
        #expect(!permanent.isAnonymous && permanent.providers == ["google": "g-1"])
        // A fresh sign-in links, and answers a new session of the same user.
        fixture.clock.set(SessionFixtures.start)
        let (linked, fresh) = try await links.link(
            for: try await fixture.bearer(session), app: "demo", provider: "apple", sourceIP: nil
        ) { apple }
        #expect(linked.id == user.id && linked.providers["apple"] == "001.ada")
        #expect(try await fixture.bearer(fresh).userID == user.id)
    }

    /// Unlinking asks the same recent sign-in, and ends the sessions the identity started: one
    /// unlinked because it was lost signs nothing in any more.
    @Test func unlinkingEndsTheSessionsTheIdentityStarted() async throws {
        let fixture = try await PasswordAccountsTests.Fixture()
        let links = IdentityLinks(
            sessions: fixture.accounts.sessions, reauthentication: fixture.accounts.reauthentication)
        let (user, session) = try await fixture.confirmedAccount("ada@example.com")
        let (linked, byApple) = try await links.link(
            for: try await fixture.bearer(session), app: "demo", provider: "apple", sourceIP: nil
        ) { .provider("apple", subject: "001.ada") }
        let appleBearer = try await fixture.bearer(byApple)
        #expect(appleBearer.sessionMethod == "apple")
        let aged = try await fixture.aged(session)
        await #expect(throws: AccountError.reauthenticationNeeded) {
            try await links.unlink("apple", of: linked, for: try await fixture.bearer(aged), sourceIP: nil)
        }
        fixture.clock.set(SessionFixtures.start)
        // A refused unlink ends nothing: the address's identity is the user's own field.
        await #expect(throws: AccountError.identityNotDetachable) {
            try await links.unlink("email", of: linked, for: try await fixture.bearer(session), sourceIP: nil)
        }
        #expect(try await fixture.bearer(session).userID == user.id)
        try await links.unlink("apple", of: linked, for: try await fixture.bearer(session), sourceIP: nil)
        #expect(try await fixture.accounts.sessions.users.user(id: user.id)?.providers["apple"] == nil)
        await #expect(throws: AccountError.sessionEnded) { try await fixture.bearer(byApple) }
        #expect(try await fixture.bearer(session).userID == user.id)
    }
}
