import AuthKit
import GatehouseJSON
import JOSE
import Store
import Testing

/// Anonymous users (Supabase's `signInAnonymously`): a user with nothing to name it but its
/// session, limited per source, gone after 30 days by its `ttl` unless an address it confirms
/// makes it permanent, keeping its id and data.
struct AnonymousSignInTests {
    struct Fixture {
        let accounts: PasswordAccountsTests.Fixture
        let anonymous: AnonymousSignIn

        init() async throws {
            accounts = try await PasswordAccountsTests.Fixture()
            anonymous = AnonymousSignIn(
                sessions: accounts.accounts.sessions, store: accounts.store, clock: accounts.clock)
        }

        /// The claims of `token`, read without checking it (the sessions' own tests check).
        func claims(_ token: String) throws -> JSONValue {
            let payload = try #require(token.split(separator: ".").dropFirst().first)
            return try JSONValue(parsing: try #require(Base64URL.decode(String(payload))))
        }
    }

    @Test func anAnonymousUserHasASessionAndExpiresIn30Days() async throws {
        let fixture = try await Fixture()
        let (user, session) = try await fixture.anonymous.signIn(
            metadata: ["theme": "dark"], app: "demo", sourceIP: "192.0.2.1")
        #expect(user.isAnonymous && user.email == nil && user.phone == nil && user.providers.isEmpty)
        #expect(user.metadata == ["theme": "dark"] && user.appMetadataWithProviders == [:])
        let claims = try fixture.claims(session.accessToken)
        #expect(
            claims["is_anonymous"] == true && claims["role"] == "authenticated" && claims["sub"] == .string(user.id))
        #expect(claims["amr"]?.arrayValue?.first?["method"] == "anonymous")
        let item = try #require(
            try await fixture.accounts.store.get(UserDirectory.usersTable, key: ItemKey(.string(user.id))))
        #expect(item["anonymous"] == true && item["ttl"] == .number(SessionFixtures.start + AnonymousSignIn.lifetime))
        // Its refreshed tokens say so too.
        let refreshed = try await fixture.accounts.accounts.sessions.refresh(token: session.refreshToken)
        #expect(try fixture.claims(refreshed.accessToken)["is_anonymous"] == true)
        // Past its ttl it is gone, and so is what its session could do.
        fixture.accounts.clock.set(SessionFixtures.start + AnonymousSignIn.lifetime + 1)
        #expect(try await fixture.accounts.accounts.sessions.users.user(id: user.id) == nil)
    }

    /// 30 an hour per source, an IPv6 /64 as one; another source is not held back.
    @Test func anonymousSignInsAreLimitedPerSource() async throws {
        let fixture = try await Fixture()
        for index in 0..<AnonymousSignIn.perSourceIP.limit {
            _ = try await fixture.anonymous.signIn(metadata: [:], app: "demo", sourceIP: "2001:db8::\(index + 1)")
        }
        await #expect(throws: SignInError.self) {
            try await fixture.anonymous.signIn(metadata: [:], app: "demo", sourceIP: "2001:db8::ffff:1")
        }
        _ = try await fixture.anonymous.signIn(metadata: [:], app: "demo", sourceIP: "2001:db8:1::1")
        let users = try await fixture.accounts.store.scan(UserDirectory.usersTable, limit: nil)
        #expect(users.count == AnonymousSignIn.perSourceIP.limit + 1)
    }

    /// An hour on, with no address for a nonce to go to, it adds one: the new address alone
    /// confirms, and the same user, data kept, is permanent. It sets no password while anonymous
    /// (whoever confirms the address may be someone else); once permanent, its anonymous session
    /// needs the nonce mailed to the confirmed address for one, however recent.
    @Test func confirmingAnAddressMakesItPermanent() async throws {
        let fixture = try await Fixture()
        let (user, first) = try await fixture.anonymous.signIn(
            metadata: ["theme": "dark"], app: "demo", sourceIP: "192.0.2.1")
        let session = try await fixture.accounts.aged(first)
        let bearer = try await fixture.accounts.bearer(session)
        for changes in [
            AccountChanges(password: "correct horse battery"),
            AccountChanges(password: "correct horse battery", email: "ada@example.com"),
        ] {
            await #expect(throws: AccountError.passwordNeedsAddress) {
                try await fixture.accounts.update(changes, for: bearer, redirectTo: nil, sourceIP: nil)
            }
        }
        let unchanged = try await fixture.accounts.update(
            AccountChanges(email: "ada@example.com"), for: bearer, redirectTo: nil, sourceIP: nil)
        #expect(unchanged.isAnonymous && unchanged.email == nil)
        let verified = try await fixture.accounts.accounts.verify(
            token: try await fixture.accounts.lastToken("ada@example.com", type: "email_change"),
            kinds: [.emailChange])
        guard case .changed(let permanent)? = verified.change else {
            Issue.record("the new address alone completes the change: \(String(describing: verified.change))")
            return
        }
        #expect(permanent.id == user.id && !permanent.isAnonymous && permanent.email == "ada@example.com")
        #expect(permanent.metadata == ["theme": "dark"])
        let item = try #require(
            try await fixture.accounts.store.get(UserDirectory.usersTable, key: ItemKey(.string(user.id))))
        #expect(item["anonymous"] == nil && item["ttl"] == nil)
        // A fresh anonymous-born session is not recent for a password now: the nonce is.
        fixture.accounts.clock.set(SessionFixtures.start)
        let fresh = try await fixture.accounts.bearer(first)
        await #expect(throws: AccountError.reauthenticationNeeded) {
            try await fixture.accounts.update(
                AccountChanges(password: "correct horse battery"), for: fresh, redirectTo: nil, sourceIP: nil)
        }
        try await fixture.accounts.accounts.reauthentication.send(
            to: permanent, app: fixture.accounts.app, sourceIP: nil)
        let text = try #require(
            try await fixture.accounts.texts("ada@example.com").last { $0.contains("Enter this code") })
        let nonce = String(try #require(text.split(separator: "change to your Demo app account: ").last?.prefix(6)))
        _ = try await fixture.accounts.update(
            AccountChanges(password: "correct horse battery", nonce: nonce), for: fresh, redirectTo: nil,
            sourceIP: nil)
        let signedIn = try await fixture.accounts.accounts.signIn(
            email: "ada@example.com", password: "correct horse battery", app: fixture.accounts.app,
            sourceIP: "192.0.2.1")
        #expect(signedIn.user.id == user.id && !signedIn.user.isAnonymous)
    }
}
