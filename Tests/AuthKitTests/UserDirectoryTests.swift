import AuthKit
import GatehouseJSON
import Store
import Testing

struct UserDirectoryTests {
    /// The domain is case-folded, the local part kept as written. Before, the whole address was
    /// lower-cased, so a Kelvin sign in the local part became `k` and merged two mailboxes.
    @Test(arguments: [
        ("  ada@Example.COM ", "ada@example.com"),
        ("Ada@Example.COM", "Ada@example.com"),
        ("a.b+tag@sub.example.org", "a.b+tag@sub.example.org"),
        ("\u{212A}evin@example.com", "\u{212A}evin@example.com"),
        ("kevin@\u{212A}.example.com", "kevin@k.example.com"),
        ("Stra\u{DF}e@STRA\u{DF}E.de", "Stra\u{DF}e@stra\u{DF}e.de"),
    ])
    func emailDomainsAreFoldedAndLocalPartsKept(text: String, normalised: String) {
        #expect(EmailAddress(text)?.value == normalised)
    }

    @Test func addressesThatFoldingWouldMergeStayApart() {
        #expect(EmailAddress("\u{212A}evin@example.com") != EmailAddress("kevin@example.com"))
        #expect(EmailAddress("Ada@example.com") != EmailAddress("ada@example.com"))
        #expect(EmailAddress("a@stra\u{DF}e.de") != EmailAddress("a@strasse.de"))
        #expect(EmailAddress("a@EXAMPLE.com") == EmailAddress("a@example.com"))
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
        let email = try #require(EmailAddress("ada@Example.com"))
        let (created, isNew) = try await users.findOrCreate(email: email, name: "Ada")
        #expect(isNew)
        #expect(created.email == "ada@example.com")
        #expect(created.name == "Ada")
        #expect(created.providers == ["email": "ada@example.com"])
        #expect(created.createdAt == SessionFixtures.start * 1000)
        #expect(created.id.utf8.count == 36 && created.id.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])

        let (found, isNewAgain) = try await users.findOrCreate(email: try #require(EmailAddress(" ada@EXAMPLE.com")))
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

/// Phone and provider identities: each unique through its index item, linked by verified email.
struct UserIdentityTests {
    struct Setup {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let users: UserDirectory

        init() throws {
            store = try SessionFixtures.store(clock: clock)
            users = UserDirectory(store: store, clock: clock)
        }

        func indexKeys() async throws -> [String] {
            try await store.scan("UserIndex", limit: nil).compactMap { $0["key"]?.stringValue }.sorted()
        }
    }

    @Test(arguments: [
        ("+14155550100", "+14155550100"), ("+1 (415) 555-0100", "+14155550100"), ("+44 20 7946 0958", "+442079460958"),
        ("+49.30.1234567", "+49301234567"),
    ])
    func phoneNumbersAreNormalisedToE164(text: String, normalised: String) {
        #expect(PhoneNumber(text)?.value == normalised)
    }

    @Test(arguments: [
        "", "14155550100", "+", "+0123456789", "+1234567", "+1234567890123456", "++14155550100", "+1415555010a",
        "+1 415 555 0100 ext 2", "+1\u{0}4155550100", "4155550100+",
    ])
    func whatIsNotE164IsRefused(text: String) {
        #expect(PhoneNumber(text) == nil)
    }

    @Test func aPhoneNumberIsOneUser() async throws {
        let setup = try Setup()
        let phone = try #require(PhoneNumber("+1 415 555 0100"))
        let (created, isNew) = try await setup.users.findOrCreate(phone: phone)
        #expect(isNew)
        #expect(created.phone == "+14155550100")
        #expect(created.email == nil)
        #expect(created.providers == ["phone": "+14155550100"])
        let (found, again) = try await setup.users.findOrCreate(phone: try #require(PhoneNumber("+14155550100")))
        #expect(!again)
        #expect(found == created)
        #expect(try await setup.indexKeys() == ["phone#+14155550100"])
    }

    @Test func aProviderSubjectIsOneUserAndAVerifiedEmailLinksAccounts() async throws {
        let setup = try Setup()
        let email = try #require(EmailAddress("ada@example.com"))
        let (apple, isNew) = try await setup.users.findOrCreate(
            provider: "apple", subject: "001234.abcd", verifiedEmail: email, name: "Ada")
        #expect(isNew)
        #expect(apple.email == "ada@example.com")
        #expect(apple.providers == ["apple": "001234.abcd"])
        #expect(try await setup.indexKeys() == ["email#ada@example.com", "provider#apple#001234.abcd"])

        // The same subject again, even with another address: the same user.
        let (same, sameIsNew) = try await setup.users.findOrCreate(
            provider: "apple", subject: "001234.abcd", verifiedEmail: nil)
        #expect(!sameIsNew)
        #expect(same.id == apple.id)

        // A magic link to the address finds that user; Google with the address links to it.
        #expect(try await setup.users.findOrCreate(email: email).user.id == apple.id)
        setup.clock.set(SessionFixtures.start + 5)
        let (google, googleIsNew) = try await setup.users.findOrCreate(
            provider: "google", subject: "1170", verifiedEmail: email)
        #expect(!googleIsNew)
        #expect(google.id == apple.id)
        #expect(google.providers == ["apple": "001234.abcd", "google": "1170"])
        #expect(google.updatedAt == (SessionFixtures.start + 5) * 1000)
        #expect(try await setup.users.user(id: apple.id) == google)

        // Without a verified address, a new subject is a new user with no address.
        let (stranger, strangerIsNew) = try await setup.users.findOrCreate(
            provider: "google", subject: "2280", verifiedEmail: nil)
        #expect(strangerIsNew)
        #expect(stranger.id != apple.id)
        #expect(stranger.email == nil)

        // Deleting removes every index item of the user, and only those.
        #expect(try await setup.users.delete(id: apple.id))
        #expect(try await setup.indexKeys() == ["provider#google#2280"])
        #expect(
            try await setup.users.findOrCreate(provider: "apple", subject: "001234.abcd", verifiedEmail: email).isNew)
    }

    /// A second subject at a provider the user already has (Apple's own subject, then the
    /// Cognito pool's for the web "Continue with Apple") is recorded beside the first, never over
    /// it: both sign in to the user, and both go with it.
    @Test func aSecondSubjectAtOneProviderNeverReplacesTheFirst() async throws {
        let setup = try Setup()
        let email = try #require(EmailAddress("ada@example.com"))
        let (native, _) = try await setup.users.findOrCreate(
            provider: "apple", subject: "001234.abcd", verifiedEmail: email)
        setup.clock.set(SessionFixtures.start + 5)
        let (web, webIsNew) = try await setup.users.findOrCreate(
            provider: "apple", subject: "cognito-sub-1", verifiedEmail: email)
        #expect(!webIsNew && web.id == native.id)
        #expect(web.providers["apple"] == "001234.abcd")
        #expect(Set(web.providers.values) == ["001234.abcd", "cognito-sub-1"])
        #expect(try await setup.users.user(.provider("apple", subject: "001234.abcd"))?.id == native.id)
        #expect(try await setup.users.user(.provider("apple", subject: "cognito-sub-1"))?.id == native.id)
        // A third subject, and the same ones again: nothing replaced, nothing doubled.
        setup.clock.set(SessionFixtures.start + 6)
        let third = try await setup.users.findOrCreate(
            provider: "apple", subject: "cognito-sub-2", verifiedEmail: email)
        #expect(Set(third.user.providers.values) == ["001234.abcd", "cognito-sub-1", "cognito-sub-2"])
        #expect(
            try await setup.users.findOrCreate(provider: "apple", subject: "cognito-sub-1", verifiedEmail: email).user
                == third.user)
        #expect(try await setup.users.delete(id: native.id))
        #expect(try await setup.indexKeys() == [])
    }

    /// An index item the user's record no longer names (a provider entry replaced or dropped)
    /// still goes with the user, so that its Apple ID or address can sign up again.
    @Test func deletingAUserDeletesIndexItemsItsRecordNoLongerNames() async throws {
        let setup = try Setup()
        let email = try #require(EmailAddress("ada@example.com"))
        let (user, _) = try await setup.users.findOrCreate(
            provider: "apple", subject: "001234.abcd", verifiedEmail: email)
        var dropped = user
        dropped.providers["apple"] = nil
        _ = try await setup.users.save(dropped, replacing: user)
        // Someone else's index item is left alone.
        _ = try await setup.users.findOrCreate(provider: "google", subject: "2280", verifiedEmail: nil)
        #expect(try await setup.users.delete(id: user.id))
        #expect(try await setup.indexKeys() == ["provider#google#2280"])
        #expect(
            try await setup.users.findOrCreate(provider: "apple", subject: "001234.abcd", verifiedEmail: nil).isNew)
    }

    /// A user stored before users recorded their index keys: the items its record names go.
    @Test func deletingAnOlderUserDeletesTheIndexItemsItsRecordNames() async throws {
        let setup = try Setup()
        let old = User(
            id: "old-user", email: "ada@example.com", providers: ["email": "ada@example.com", "apple": "001234.abcd"],
            createdAt: 1, updatedAt: 1)
        try await setup.store.put("Users", item: old.item, condition: nil)
        for key in ["email#ada@example.com", "provider#apple#001234.abcd"] {
            try await setup.store.put("UserIndex", item: ["key": .string(key), "userId": "old-user"], condition: nil)
        }
        #expect(try await setup.users.user(id: "old-user") == old)
        #expect(try await setup.users.delete(id: "old-user"))
        #expect(try await setup.indexKeys() == [])
        #expect(try await setup.store.scan("Users", limit: nil).isEmpty)
    }

    /// Twenty first sign-ins of one provider account at once: one user.
    @Test func concurrentFirstSignInsOfAProviderAccountCreateOneUser() async throws {
        let setup = try Setup()
        let users = setup.users
        let email = try #require(EmailAddress("race@example.com"))
        let results = try await withThrowingTaskGroup(of: (User, Bool).self) { group in
            for _ in 0..<20 {
                group.addTask { try await users.findOrCreate(provider: "apple", subject: "race", verifiedEmail: email) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter(\.1).count == 1)
        #expect(Set(results.map(\.0.id)).count == 1)
        #expect(try await setup.store.scan("Users", limit: nil).count == 1)
        #expect(try await setup.indexKeys() == ["email#race@example.com", "provider#apple#race"])
    }

    /// A magic-link sign-up and a provider sign-in with the same address at once: one user,
    /// with both.
    @Test func concurrentEmailAndProviderSignUpsMeetInOneUser() async throws {
        let setup = try Setup()
        let users = setup.users
        let email = try #require(EmailAddress("meet@example.com"))
        for _ in 0..<5 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await users.findOrCreate(email: email) }
                group.addTask {
                    _ = try await users.findOrCreate(provider: "apple", subject: "meet", verifiedEmail: email)
                }
                try await group.waitForAll()
            }
            let all = try await setup.store.scan("Users", limit: nil)
            #expect(all.count == 1)
            let user = try #require(try await users.user(.provider("apple", subject: "meet")))
            #expect(user.providers["apple"] == "meet")
            #expect(try await users.user(email: email)?.id == user.id)
            #expect(try await users.delete(id: user.id))
        }
    }
}
