import AuthKit
import Store
import Testing

struct UserDirectoryTests {
    @Test(arguments: [
        ("  Ada@Example.COM ", "ada@example.com"),
        ("a.b+tag@sub.example.org", "a.b+tag@sub.example.org"),
    ])
    func emailAddressesAreTrimmedAndLowerCased(text: String, normalised: String) {
        #expect(EmailAddress(text)?.value == normalised)
    }

    @Test(arguments: [
        "", "   ", "ada", "ada@example", "ada@@example.com", "a da@example.com", "@example.com",
        "ada@.example.com", "ada@example.com.", "ada@exa\u{0}mple.com", String(repeating: "a", count: 250) + "@b.cd",
    ])
    func whatCannotBeAnAddressIsRefused(text: String) {
        #expect(EmailAddress(text) == nil)
    }

    @Test func findOrCreateCreatesOnceAndThenFinds() async throws {
        let clock = TestClock(SessionFixtures.start)
        let users = UserDirectory(store: try SessionFixtures.store(clock: clock), clock: clock)
        let email = try #require(EmailAddress("Ada@Example.com"))
        let (created, isNew) = try await users.findOrCreate(email: email, name: "Ada")
        #expect(isNew)
        #expect(created.email == "ada@example.com")
        #expect(created.name == "Ada")
        #expect(created.providers == ["email": "ada@example.com"])
        #expect(created.createdAt == SessionFixtures.start * 1000)
        #expect(created.id.utf8.count == 22)

        let (found, isNewAgain) = try await users.findOrCreate(email: try #require(EmailAddress(" ADA@example.com")))
        #expect(!isNewAgain)
        #expect(found == created)
        #expect(try await users.user(id: created.id) == created)
        #expect(try await users.user(id: "nobody") == nil)
    }

    /// Twenty sign-ins of one new address at once: one user, created by exactly one of them.
    @Test func concurrentSignInsOfANewAddressCreateOneUser() async throws {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        let users = UserDirectory(store: store, clock: clock)
        let email = try #require(EmailAddress("race@example.com"))
        let results = try await withThrowingTaskGroup(of: (User, Bool).self) { group in
            for _ in 0..<20 { group.addTask { try await users.findOrCreate(email: email) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter(\.1).count == 1)
        #expect(Set(results.map(\.0.id)).count == 1)
        #expect(try await store.scan("Users", limit: nil).count == 1)
        #expect(try await store.scan("UserIndex", limit: nil).count == 1)
    }
}
