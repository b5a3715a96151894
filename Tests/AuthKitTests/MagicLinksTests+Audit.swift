import AuthKit
import Testing

extension MagicLinksTests {
    /// The fixture's links, recording to the audit log.
    func auditedLinks(_ fixture: Fixture) -> MagicLinks {
        var links = fixture.links
        links.audit = AuditLog(store: fixture.store, clock: fixture.clock)
        return links
    }

    /// A spent link used again (a click, or Supabase's `/verify` with its token), a link clicked
    /// after its expiry, and a PKCE link used without its verifier are refused sign-ins of the
    /// address's user, for the link's app: a second use can be someone else's copy. Each link
    /// is recorded once, however often it is sent again. The first click records nothing here
    /// (the exchange of its code records the sign-in), and a token no link has is not recorded.
    @Test func spentExpiredAndUnverifiedLinksAreRefusedSignInsOnceEach() async throws {
        let fixture = try await Fixture()
        let links = auditedLinks(fixture)
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

        for _ in 0..<3 {
            #expect(
                try await links.complete(token: first)
                    == .expired(redirect: "http://127.0.0.1:3000/app/auth/callback?error=link_expired"))
            await #expect(throws: AccountError.linkExpired) { try await links.signIn(token: first) }
        }
        #expect(try await links.audit.events(AuditQuery(userID: user.id)).events.count == 1)

        // Each link is sent a second after the last, so that it is the outbox's last message.
        fixture.clock.set(SessionFixtures.start + 1)
        let challenge = PKCE.challenge(for: String(repeating: "v", count: 43))
        try await links.send(
            email: "ada@example.com", app: "demo", platform: nil, sourceIP: nil, codeChallenge: challenge)
        let unverified = try await fixture.lastToken("ada@example.com")
        await #expect(throws: FlowError.badVerifier) {
            try await links.signIn(token: unverified, codeVerifier: String(repeating: "w", count: 43))
        }
        fixture.clock.set(SessionFixtures.start + 2)
        try await links.send(email: "ada@example.com", app: "demo", platform: nil, sourceIP: nil)
        let late = try await fixture.lastToken("ada@example.com")
        fixture.clock.set(SessionFixtures.start + 2 + MagicLinks.defaultLifetime)
        for _ in 0..<2 {
            #expect(
                try await links.complete(token: late)
                    == .expired(redirect: "http://127.0.0.1:3000/app/auth/callback?error=link_expired"))
        }
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

    /// A link that expired unused, of an address with no account, is recorded without a user:
    /// only under its day.
    @Test func anExpiredLinkOfAnAddressWithoutAnAccountIsRecordedWithoutAUser() async throws {
        let fixture = try await Fixture()
        let links = auditedLinks(fixture)
        try await links.send(email: "ada@example.com", app: "demo", platform: nil, sourceIP: nil)
        let token = try await fixture.lastToken("ada@example.com")
        fixture.clock.set(SessionFixtures.start + MagicLinks.defaultLifetime)
        _ = try await links.complete(token: token)
        let events = try await links.audit.events(AuditQuery()).events
        #expect(events.count == 1)
        #expect(events.first?.userID == nil && events.first?.outcome == .failure(.wrongCode))
    }

    /// An account made for the address after the link expired (the old one deleted, say) is
    /// someone else's: the old link's use is recorded, but not in that account's feed.
    @Test func anAccountMadeAfterTheLinkExpiredIsNotBlamedForIt() async throws {
        let fixture = try await Fixture()
        let links = auditedLinks(fixture)
        try await links.send(email: "ada@example.com", app: "demo", platform: nil, sourceIP: nil)
        let token = try await fixture.lastToken("ada@example.com")
        fixture.clock.set(SessionFixtures.start + MagicLinks.defaultLifetime + 1)
        let address = try #require(EmailAddress("ada@example.com"))
        let (user, _) = try await UserDirectory(store: fixture.store, clock: fixture.clock).findOrCreate(
            email: address)
        _ = try await links.complete(token: token)
        #expect(try await links.audit.events(AuditQuery(userID: user.id)).events.isEmpty)
        #expect(try await links.audit.events(AuditQuery()).events.map(\.userID) == [nil])
    }
}
