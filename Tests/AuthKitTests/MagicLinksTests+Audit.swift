import AuthKit
import Testing

extension MagicLinksTests {
    /// A spent link used again (a click, or Supabase's `/verify` with its token) and a link
    /// clicked after its expiry are refused sign-ins of the address's user, for the link's app:
    /// a second use can be someone else's copy. The first click records nothing here (the
    /// exchange of its code records the sign-in), and a token no link has is not recorded.
    @Test func spentAndExpiredLinksAreRefusedSignInsInTheAuditLog() async throws {
        let fixture = try await Fixture()
        var links = fixture.links
        links.audit = AuditLog(store: fixture.store, clock: fixture.clock)
        try await links.send(email: "ada@example.com", app: "demo", platform: nil, sourceIP: nil)
        let first = try await fixture.lastToken("ada@example.com")
        guard case .signedIn = try await links.complete(token: first) else {
            Issue.record("the first click should sign in")
            return
        }
        let address = try #require(EmailAddress("ada@example.com"))
        let found = try await UserDirectory(store: fixture.store, clock: fixture.clock).user(email: address)
        let user = try #require(found)
        #expect(try await links.audit.events(AuditQuery()).events.isEmpty)

        #expect(
            try await links.complete(token: first)
                == .expired(redirect: "http://127.0.0.1:3000/app/auth/callback?error=link_expired"))
        await #expect(throws: AccountError.linkExpired) { try await links.signIn(token: first) }
        try await links.send(email: "ada@example.com", app: "demo", platform: nil, sourceIP: nil)
        let second = try await fixture.lastToken("ada@example.com")
        fixture.clock.set(SessionFixtures.start + MagicLinks.defaultLifetime)
        #expect(
            try await links.complete(token: second)
                == .expired(redirect: "http://127.0.0.1:3000/app/auth/callback?error=link_expired"))
        #expect(try await links.complete(token: String(repeating: "a", count: 64)) == .unknown)
        await #expect(throws: AccountError.linkExpired) {
            try await links.signIn(token: String(repeating: "b", count: 64))
        }

        let events = try await links.audit.events(AuditQuery(userID: user.id)).events
        #expect(events.count == 3)
        for event in events {
            #expect(event.action == .signIn && event.outcome == .failure(.wrongCode) && event.method == .otp)
            #expect(event.app == "demo" && event.actor == .system)
        }
        // The day's read across users holds the same three: the made-up tokens left nothing.
        #expect(try await links.audit.events(AuditQuery()).events.map(\.id) == events.map(\.id))
    }

    /// A spent link of an address with no account (its user deleted since) is recorded without
    /// a user: only under its day.
    @Test func aSpentLinkOfAnAddressWithoutAnAccountIsRecordedWithoutAUser() async throws {
        let fixture = try await Fixture()
        var links = fixture.links
        links.audit = AuditLog(store: fixture.store, clock: fixture.clock)
        try await links.send(email: "ada@example.com", app: "demo", platform: nil, sourceIP: nil)
        let token = try await fixture.lastToken("ada@example.com")
        fixture.clock.set(SessionFixtures.start + MagicLinks.defaultLifetime)
        _ = try await links.complete(token: token)
        let events = try await links.audit.events(AuditQuery()).events
        #expect(events.count == 1)
        #expect(events.first?.userID == nil && events.first?.outcome == .failure(.wrongCode))
    }
}
