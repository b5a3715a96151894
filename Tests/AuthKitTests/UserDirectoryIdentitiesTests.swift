import AuthKit
import GatehouseJSON
import Store
import Testing

/// Linking a provider's identity to a signed-in user and unlinking it (Supabase's
/// `linkIdentityWithIdToken` and `unlinkIdentity`): an identity is one user's, never moved; a
/// user keeps one identity at least.
struct UserDirectoryIdentitiesTests {
    let clock = TestClock(SessionFixtures.start)
    let store: SQLiteStore
    let users: UserDirectory

    init() throws {
        store = try SessionFixtures.store(clock: clock)
        users = UserDirectory(store: store, clock: clock)
    }

    @Test func anIdentityIsLinkedToOneUserAndNeverMoved() async throws {
        let ada = try await users.findOrCreate(email: try #require(EmailAddress("ada@example.com"))).user
        let grace = try await users.findOrCreate(
            provider: "apple", subject: "001.grace", verifiedEmail: nil
        ).user
        let apple = SignInIdentity.provider("apple", subject: "001.ada")
        let linked = try await users.attach(apple, to: ada)
        #expect(linked.providers == ["email": "ada@example.com", "apple": "001.ada"])
        #expect(try await users.user(apple)?.id == ada.id)
        // Again: nothing changes. Grace's identity: refused, still Grace's.
        #expect(try await users.attach(apple, to: linked) == linked)
        await #expect(throws: AccountError.identityTaken) {
            try await users.attach(.provider("apple", subject: "001.grace"), to: linked)
        }
        #expect(try await users.user(.provider("apple", subject: "001.grace"))?.id == grace.id)
        #expect(try await users.user(id: ada.id)?.providers.count == 2)
    }

    @Test func unlinkingKeepsOneIdentityAndFreesTheOneUnlinked() async throws {
        let ada = try await users.findOrCreate(email: try #require(EmailAddress("ada@example.com"))).user
        let linked = try await users.attach(.provider("apple", subject: "001.ada"), to: ada)
        await #expect(throws: AccountError.identityNotFound) { try await users.detach("google", from: linked) }
        await #expect(throws: AccountError.identityNotDetachable) { try await users.detach("email", from: linked) }
        let unlinked = try await users.detach("apple", from: linked)
        #expect(unlinked.providers == ["email": "ada@example.com"])
        #expect(try await users.user(.provider("apple", subject: "001.ada")) == nil)
        // Freed: it signs up as its own user now.
        let other = try await users.findOrCreate(provider: "apple", subject: "001.ada", verifiedEmail: nil)
        #expect(other.isNew && other.user.id != ada.id)
        await #expect(throws: AccountError.lastIdentity) { try await users.detach("apple", from: other.user) }
    }

    @Test func anAnonymousUserWithAnIdentityIsPermanent() async throws {
        var user = User.anonymous(metadata: [:], at: SessionFixtures.start * 1000, lifetime: AnonymousSignIn.lifetime)
        try await store.put(UserDirectory.usersTable, item: user.item, condition: .itemNotExists)
        user = try await users.attach(.provider("google", subject: "g-1"), to: user)
        #expect(!user.isAnonymous && user.pendingUntil == nil)
        let item = try #require(try await store.get(UserDirectory.usersTable, key: ItemKey(.string(user.id))))
        #expect(item["anonymous"] == nil && item["ttl"] == nil)
    }
}
