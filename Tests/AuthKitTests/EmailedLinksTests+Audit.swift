import AuthKit
import Testing

extension EmailedLinksTests {
    /// A wrong six-digit code typed at Supabase's `/verify` `{email, token}` (`EmailedLinks`) is
    /// recorded as a refused sign-in of the address's user, as at Gatehouse's own route.
    @Test func aWrongEmailedCodeIsARefusedSignInInTheAuditLog() async throws {
        let fixture = try await Fixture()
        var sessions = fixture.accounts.accounts.sessions
        sessions.audit = AuditLog(store: fixture.accounts.store, clock: fixture.accounts.clock)
        let accounts = PasswordAccounts(
            sessions: sessions, store: fixture.accounts.store, clock: fixture.accounts.clock,
            links: fixture.accounts.accounts.links, hasher: PasswordHasher(parameters: .init(logN: 10, r: 8, p: 1)))
        let links = EmailedLinks(accounts: accounts, magicLinks: fixture.magicLinks)
        let user = try await fixture.accounts.signUp("ada@example.com")
        await #expect(throws: AccountError.linkExpired) {
            try await links.verify(
                email: "ada@example.com", code: "000000", kinds: [.signup], signInLinks: true, sourceIP: "192.0.2.1",
                app: "demo")
        }
        let events = try await sessions.audit.events(AuditQuery(userID: user.id)).events
        #expect(events.map(\.action) == [.signIn])
        #expect(events.first?.outcome == .failure(.wrongCode))
    }
}
