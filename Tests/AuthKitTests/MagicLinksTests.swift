import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// Magic links on a real store file, delivered to the outbox, with a clock the tests set.
struct MagicLinksTests {
    struct Fixture {
        let clock: TestClock
        let store: SQLiteStore
        let links: MagicLinks

        init() async throws {
            clock = TestClock(SessionFixtures.start)
            store = try SessionFixtures.store(clock: clock)
            try await AppRegistry(store: store).ensureDemoApp()
            links = MagicLinks(
                store: store, clock: clock, sender: OutboxSender(store: store, clock: clock),
                issuer: "http://127.0.0.1:3000")
        }

        /// The messages in the outbox for `recipient`, oldest first.
        func outbox(_ recipient: String) async throws -> [Item] {
            try await store.query(
                OutboxSender.table, partition: .string(recipient), sortKey: nil, limit: nil, ascending: true)
        }

        /// The token of the last link mailed to `recipient`.
        func lastToken(_ recipient: String) async throws -> String {
            let link = try #require(try await outbox(recipient).last?["secret"]?.stringValue)
            return String(try #require(link.split(separator: "token=").last))
        }
    }

    @Test func aClickedLinkSignsInOnceAndNamesANewUser() async throws {
        let fixture = try await Fixture()
        try await fixture.links.send(email: "John.Doe@Example.COM", app: "demo", platform: nil, sourceIP: "192.0.2.1")
        let messages = try await fixture.outbox("John.Doe@example.com")
        #expect(messages.count == 1)
        let message = try #require(messages.first)
        #expect(message["channel"] == "email")
        #expect(message["subject"] == "Sign in to Demo app")
        let link = try #require(message["secret"]?.stringValue)
        #expect(link.hasPrefix("http://127.0.0.1:3000/auth/email-callback?token="))
        #expect(message["text"]?.stringValue?.contains(link) == true)
        // Without the OTP secret (the native routes), no code: nothing could take it.
        #expect(message["text"]?.stringValue?.contains("code") == false)
        let token = try await fixture.lastToken("John.Doe@example.com")
        #expect(token.count == 64)
        // Only the token's hash is stored.
        let stored = try await fixture.store.scan(MagicLinks.table, limit: nil)
        #expect(stored.count == 1)
        #expect(stored.first?["tokenHash"]?.stringValue != token)
        #expect(!"\(stored)".contains(token))

        guard case .signedIn(let redirect) = try await fixture.links.complete(token: token) else {
            Issue.record("the first click should sign in")
            return
        }
        #expect(redirect.hasPrefix("http://127.0.0.1:3000/app/auth/callback?code="))
        let code = String(redirect.split(separator: "code=").last!)
        let grant = try await AuthCodes(store: fixture.store, clock: fixture.clock).consume(code, app: "demo")
        #expect(grant.isNewUser)
        #expect(grant.provider == "email")
        let user = try #require(
            try await UserDirectory(store: fixture.store, clock: fixture.clock).user(id: grant.userID))
        #expect(user.email == "John.Doe@example.com")
        #expect(user.name == "John Doe")

        #expect(
            try await fixture.links.complete(token: token)
                == .expired(redirect: "http://127.0.0.1:3000/app/auth/callback?error=link_expired"))
    }

    @Test func aMobileLinkReturnsToTheAppsScheme() async throws {
        let fixture = try await Fixture()
        try await fixture.links.send(email: "ada@example.com", app: "demo", platform: "mobile", sourceIP: nil)
        let completion = try await fixture.links.complete(token: try await fixture.lastToken("ada@example.com"))
        guard case .signedIn(let redirect) = completion else {
            Issue.record("expected a sign-in, got \(completion)")
            return
        }
        #expect(redirect.hasPrefix("gatehouse-demo://auth/callback?code="))
    }

    @Test func aLinkExpiresAfterFifteenMinutesAndUnknownTokensFindNoApp() async throws {
        let fixture = try await Fixture()
        try await fixture.links.send(email: "ada@example.com", app: "demo", platform: nil, sourceIP: nil)
        let token = try await fixture.lastToken("ada@example.com")
        fixture.clock.set(SessionFixtures.start + MagicLinks.defaultLifetime)
        #expect(
            try await fixture.links.complete(token: token)
                == .expired(redirect: "http://127.0.0.1:3000/app/auth/callback?error=link_expired"))
        #expect(try await fixture.links.complete(token: String(repeating: "a", count: 64)) == .unknown)
        #expect(try await fixture.links.complete(token: "short") == .unknown)
        #expect(try await fixture.links.complete(token: String(repeating: "%", count: 64)) == .unknown)
    }

    /// An address with an account and one without: the same writes (a link, a message, the
    /// counter), nothing read of the account, and the same outcome.
    @Test func sendingDoesTheSameWorkWhetherOrNotAnAccountExists() async throws {
        let fixture = try await Fixture()
        _ = try await UserDirectory(store: fixture.store, clock: fixture.clock).findOrCreate(
            email: EmailAddress("known@example.com")!)
        func counts() async throws -> [Int] {
            var counts: [Int] = []
            for table in [MagicLinks.table, OutboxSender.table, RateLimiter.table, UserDirectory.usersTable] {
                counts.append(try await fixture.store.scan(table, limit: nil).count)
            }
            return counts
        }
        let before = try await counts()
        try await fixture.links.send(email: "known@example.com", app: "demo", platform: nil, sourceIP: "192.0.2.1")
        let afterKnown = try await counts()
        try await fixture.links.send(email: "unknown@example.com", app: "demo", platform: nil, sourceIP: "192.0.2.1")
        let afterUnknown = try await counts()
        // The source's counter, the address and source's, the address's, and its live mark.
        #expect(zip(before, afterKnown).map { $1 - $0 } == [1, 1, 4, 0])
        // The source's counter is shared: three new items (the address's), not four.
        #expect(zip(afterKnown, afterUnknown).map { $1 - $0 } == [1, 1, 3, 0])
    }

    /// Fifty sends at once for one address: exactly five links go out; the rest are told when
    /// to come back.
    @Test func racingSendsDeliverExactlyTheLimit() async throws {
        let fixture = try await Fixture()
        let links = fixture.links
        let refused = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do {
                        try await links.send(email: "ada@example.com", app: "demo", platform: nil, sourceIP: nil)
                        return nil
                    } catch SignInError.rateLimited(let seconds) {
                        return seconds
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { if let seconds = $1 { $0.append(seconds) } }
        }
        #expect(refused.count == 45)
        #expect(refused.allSatisfy { $0 == 3600 })
        #expect(try await fixture.outbox("ada@example.com").count == 5)
        #expect(try await fixture.store.scan(MagicLinks.table, limit: nil).count == 5)
    }

    @Test func thePublicRouteIsLimitedPerSourceIPToo() async throws {
        let fixture = try await Fixture()
        for index in 0..<30 {
            try await fixture.links.send(
                email: "user\(index)@example.com", app: "demo", platform: nil, sourceIP: "192.0.2.9")
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 300)) {
            try await fixture.links.send(email: "late@example.com", app: "demo", platform: nil, sourceIP: "192.0.2.9")
        }
        #expect(try await fixture.outbox("late@example.com").isEmpty)
    }

    @Test(
        arguments: [
            (nil, "demo", nil, SignInError.invalidField("email", "is required")),
            ("not-an-address", "demo", nil, SignInError.invalidField("email", "is not an email address")),
            ("ada@example.com", nil, nil, SignInError.invalidField("app", "is required")),
            ("ada@example.com", "nope", nil, SignInError.unknownApp),
            ("ada@example.com", "demo", "tv", SignInError.invalidField("platform", "must be web or mobile")),
        ] as [(String?, String?, String?, SignInError)])
    func badRequestsNameTheFieldAndSendNothing(
        email: String?, app: String?, platform: String?, error: SignInError
    )
        async throws
    {
        let fixture = try await Fixture()
        await #expect(throws: error) {
            try await fixture.links.send(email: email, app: app, platform: platform, sourceIP: "192.0.2.1")
        }
        #expect(try await fixture.store.scan(OutboxSender.table, limit: nil).isEmpty)
        #expect(try await fixture.store.scan(MagicLinks.table, limit: nil).isEmpty)
        #expect(try await fixture.store.scan(RateLimiter.table, limit: nil).isEmpty)
    }

    @Test(
        arguments: [
            ("john.doe@gmail.com", "John Doe"), ("j_smith+news@x.io", "J Smith"), ("ADA-lovelace@x.io", "Ada Lovelace"),
            ("123@x.io", nil),
        ] as [(String, String?)])
    func displayNamesComeFromTheLocalPart(email: String, name: String?) {
        #expect(DisplayName.from(email: EmailAddress(email)!) == name)
    }
}
