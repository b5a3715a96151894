import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import Store
import Testing

/// Password accounts on a real store file, emails in the outbox, a clock the tests set, and a
/// cheap scrypt cost (2^10) so that the rules, not the hashing, take the time.
struct PasswordAccountsTests {
    struct Fixture {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let signUps: PasswordSignUp
        let accounts: PasswordAccounts
        let app: App

        init() async throws {
            store = try SessionFixtures.store(clock: clock)
            let apps = AppRegistry(store: store)
            try await apps.ensureDemoApp()
            app = try #require(try await apps.app(id: "demo"))
            let hasher = PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1))
            let sender = OutboxSender(store: store, clock: clock)
            let links = EmailTokens(
                store: store, clock: clock, sender: sender, issuer: "http://127.0.0.1:3000",
                secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)))
            signUps = PasswordSignUp(store: store, clock: clock, links: links, hasher: hasher)
            let sessions = SessionService(
                store: store, clock: clock,
                settings: try SessionSettings(environment: ["ISSUER": "http://127.0.0.1:3000"]),
                keys: try SigningKeySet.generate())
            accounts = PasswordAccounts(sessions: sessions, store: store, clock: clock, links: links, hasher: hasher)
        }

        /// The links mailed to `recipient`, oldest first.
        func links(_ recipient: String) async throws -> [String] {
            try await store.query(
                OutboxSender.table, partition: .string(recipient), sortKey: nil, limit: nil, ascending: true
            ).compactMap { $0["secret"]?.stringValue }
        }

        /// The tokens of the links of `type` mailed to `recipient` (the outbox's order is by
        /// time, and this clock stands still, so tests tell links apart by their tokens).
        func tokens(_ recipient: String, type: String = "signup") async throws -> Set<String> {
            Set(
                try await links(recipient).compactMap { link in
                    let query = URLComponents(string: link)?.queryItems ?? []
                    guard query.contains(where: { $0.name == "type" && $0.value == type }) else { return nil }
                    return query.first { $0.name == "token" }?.value
                })
        }

        /// The token of the one link of `type` mailed to `recipient`.
        func lastToken(_ recipient: String, type: String = "signup") async throws -> String {
            let tokens = try await tokens(recipient, type: type)
            #expect(tokens.count == 1)
            return try #require(tokens.first)
        }

        func signUp(_ email: String, _ password: String = "correct horse battery") async throws -> User {
            try await signUps.signUp(
                email: email, password: password, metadata: ["name": "Ada"], app: app, redirectTo: nil,
                sourceIP: "192.0.2.1")
        }
    }

    @Test func aSignUpIsConfirmedByItsLinkOnceAndThenSignsIn() async throws {
        let fixture = try await Fixture()
        let user = try await fixture.signUp("ada@example.com")
        #expect(user.emailIsPending && user.name == "Ada" && user.metadata == ["name": "Ada"])
        let links = try await fixture.links("ada@example.com")
        #expect(links.count == 1)
        #expect(links.first?.hasPrefix("http://127.0.0.1:3000/auth/v1/verify?token=") == true)
        #expect(links.first?.contains("type=signup&redirect_to=http%3A%2F%2F127.0.0.1%3A3000%2F") == true)

        // Right password, unconfirmed address: told so; a wrong one is told nothing more.
        await #expect(throws: AccountError.emailNotConfirmed) {
            try await fixture.accounts.signIn(
                email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: nil)
        }
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.signIn(
                email: "ada@example.com", password: "wrong horse battery", app: fixture.app, sourceIP: nil)
        }

        let token = try await fixture.lastToken("ada@example.com")
        let verified = try await fixture.accounts.verify(token: token, kinds: [.signup])
        #expect(verified.user.id == user.id && !verified.user.emailIsPending)
        #expect(verified.redirectTo == "http://127.0.0.1:3000/")
        #expect(verified.session.user.id == user.id)
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: token, kinds: [.signup])
        }

        fixture.clock.set(SessionFixtures.start + 60)
        let (signedIn, session) = try await fixture.accounts.signIn(
            email: "ada@EXAMPLE.com", password: "correct horse battery", app: fixture.app, sourceIP: nil)
        #expect(signedIn.lastSignInAt == (SessionFixtures.start + 60) * 1000)
        #expect(
            try await fixture.accounts.sessions.bearer("Bearer \(session.accessToken)", app: "demo").userID == user.id)
        // Only the hash is stored, with its parameters.
        let stored = try #require(try await PasswordCredentials.hash(userID: user.id, in: fixture.store))
        #expect(stored.hasPrefix("$scrypt$ln=10,r=8,p=1$") && !stored.contains("correct horse"))
    }

    /// A hash made at a lower cost than today's (here p = 1 against p = 2, the shape of the move
    /// from N = 2^13, p = 1 to N = 2^14, p = 5, at a cost a test can afford) is redone at the next
    /// good sign-in, and the new one signs in without being redone again.
    @Test func aWeakerHashIsRedoneAtTheNextGoodSignIn() async throws {
        let fixture = try await Fixture()
        let user = try await fixture.signUp("ada@example.com")
        _ = try await fixture.accounts.verify(token: try await fixture.lastToken("ada@example.com"), kinds: [.signup])
        let today = ScryptParameters(logN: 10, r: 8, p: 2)
        let stronger = PasswordAccounts(
            sessions: fixture.accounts.sessions, store: fixture.store, clock: fixture.clock,
            links: fixture.accounts.links, hasher: PasswordHasher(parameters: today))
        await #expect(throws: AccountError.invalidCredentials) {
            try await stronger.signIn(
                email: "ada@example.com", password: "wrong horse battery", app: fixture.app, sourceIP: nil)
        }
        #expect(
            try await PasswordCredentials.hash(userID: user.id, in: fixture.store)?.hasPrefix("$scrypt$ln=10,r=8,p=1$")
                == true)
        fixture.clock.set(SessionFixtures.start + 1)
        _ = try await stronger.signIn(
            email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: nil)
        let redone = try #require(try await PasswordCredentials.hash(userID: user.id, in: fixture.store))
        #expect(redone.hasPrefix("$scrypt$\(today)$"))
        #expect(
            try PasswordHasher(parameters: today).check("correct horse battery", against: redone)
                == .matches(needsRehash: false))
        fixture.clock.set(SessionFixtures.start + 2)
        _ = try await stronger.signIn(
            email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: nil)
        #expect(try await PasswordCredentials.hash(userID: user.id, in: fixture.store) == redone)
    }

    @Test func aTakenAddressSignsUpToTheSameAnswerAndNoEmail() async throws {
        let fixture = try await Fixture()
        let first = try await fixture.signUp("ada@example.com")
        let second = try await fixture.signUp("ada@example.com", "another passphrase entirely")
        #expect(second.id != first.id)
        var relabelled = second
        relabelled = User(
            id: first.id, email: second.email, name: second.name, providers: second.providers,
            createdAt: second.createdAt, updatedAt: second.updatedAt, metadata: second.metadata)
        relabelled.emailConfirmedAt = second.emailConfirmedAt
        #expect(relabelled == first)
        #expect(try await fixture.links("ada@example.com").count == 1)
        // The first password still stands; the second was never stored.
        let stored = try #require(try await PasswordCredentials.hash(userID: first.id, in: fixture.store))
        #expect(
            try PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1)).check(
                "correct horse battery", against: stored) == .matches(needsRehash: false))
    }

    @Test func weakPasswordsAndForeignRedirectsAreRefusedBeforeAnythingIsWritten() async throws {
        let fixture = try await Fixture()
        await #expect(throws: AccountError.weakPassword([.length], minimumLength: 8)) {
            try await fixture.signUp("ada@example.com", "short")
        }
        await #expect(throws: AccountError.weakPassword([.pwned], minimumLength: 8)) {
            try await fixture.signUp("ada@example.com", "password1")
        }
        await #expect(throws: AccountError.redirectNotAllowed) {
            try await fixture.signUps.signUp(
                email: "ada@example.com", password: "correct horse battery", metadata: [:], app: fixture.app,
                redirectTo: "https://evil.example/", sourceIP: nil)
        }
        #expect(try await fixture.store.scan(UserDirectory.usersTable, limit: nil).isEmpty)
        #expect(try await fixture.links("ada@example.com").isEmpty)
    }

    @Test func redirectsMustBeTheAppsOwn() throws {
        let app = try App(
            id: "shop", name: "Shop", baseURL: "https://shop.example", mobileScheme: "com.shop", publicKeys: [])
        for allowed in ["https://shop.example", "https://shop.example/welcome?x=1", "com.shop://auth/callback"] {
            #expect(try AppRedirect.resolve(allowed, app: app) == allowed)
        }
        #expect(try AppRedirect.resolve(nil, app: app) == "https://shop.example/")
        for refused in [
            "https://shop.example.evil.com/", "https://shop.example@evil.com/",
            "https://evil.com/?https://shop.example",
            "http://shop.example/", "com.shopper://x", "https://shop.example/\\evil", "https://shop.example/ x",
            "javascript:alert(1)",
        ] {
            #expect(throws: AccountError.redirectNotAllowed, "\(refused)") {
                try AppRedirect.resolve(refused, app: app)
            }
        }
    }

    @Test func twentyRacingWrongPasswordsLockTheAccountForFifteenMinutes() async throws {
        let fixture = try await Fixture()
        _ = try await fixture.signUp("ada@example.com")
        _ = try await fixture.accounts.verify(token: try await fixture.lastToken("ada@example.com"), kinds: [.signup])
        let refusals = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask {
                    do {
                        _ = try await fixture.accounts.signIn(
                            email: "ada@example.com", password: "wrong guess \(index)", app: fixture.app,
                            sourceIP: "198.51.100.\(index)")
                        return false
                    } catch {
                        return error as? AccountError == .invalidCredentials
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(refusals == 20)
        // Locked: the right password gets the wrong one's answer, for 15 minutes.
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.signIn(
                email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: nil)
        }
        fixture.clock.set(SessionFixtures.start + 900)
        _ = try await fixture.accounts.signIn(
            email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: nil)
    }

    @Test func aMagicLinkToAnUnconfirmedAccountDropsThePasswordItsSignUpChose() async throws {
        let fixture = try await Fixture()
        // Someone signs up the victim's address with a password of their own, never confirmed.
        let planted = try await fixture.signUp("victim@example.com", "attacker passphrase")
        // The victim later signs in by a magic link: the address is confirmed, the password gone.
        let links = MagicLinks(
            store: fixture.store, clock: fixture.clock,
            sender: OutboxSender(store: fixture.store, clock: fixture.clock),
            issuer: "http://127.0.0.1:3000")
        try await links.send(email: "victim@example.com", app: "demo", platform: nil, sourceIP: nil)
        let link = try #require(try await fixture.links("victim@example.com").first { $0.contains("email-callback") })
        let (user, _) = try await links.signIn(token: String(link.split(separator: "token=").last!))
        #expect(user.id == planted.id && !user.emailIsPending)
        #expect(try await PasswordCredentials.hash(userID: user.id, in: fixture.store) == nil)
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.signIn(
                email: "victim@example.com", password: "attacker passphrase", app: fixture.app, sourceIP: nil)
        }
    }

    @Test func recoveryMailsOnlyAnAccountAndItsLinkWorksOnceWithinTheHour() async throws {
        let fixture = try await Fixture()
        try await fixture.signUps.recover(
            email: "nobody@example.com", app: fixture.app, redirectTo: nil, sourceIP: nil)
        #expect(try await fixture.links("nobody@example.com").isEmpty)

        _ = try await fixture.signUp("ada@example.com")
        try await fixture.signUps.recover(
            email: "ada@example.com", app: fixture.app, redirectTo: "gatehouse-demo://reset", sourceIP: nil)
        let token = try await fixture.lastToken("ada@example.com", type: "recovery")
        // A recovery link is not a sign-up's, and is not used up by trying it as one.
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: token, kinds: [.signup])
        }
        fixture.clock.set(SessionFixtures.start + 3599)
        let verified = try await fixture.accounts.verify(token: token, kinds: [.recovery])
        #expect(verified.redirectTo == "gatehouse-demo://reset" && !verified.user.emailIsPending)
        // Recovering an account never confirmed drops the password its sign-up chose.
        #expect(try await PasswordCredentials.hash(userID: verified.user.id, in: fixture.store) == nil)

        try await fixture.signUps.recover(email: "ada@example.com", app: fixture.app, redirectTo: nil, sourceIP: nil)
        let late = try #require(
            try await fixture.tokens("ada@example.com", type: "recovery").subtracting([token]).first)
        fixture.clock.set(SessionFixtures.start + 3599 + 3600)
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: late, kinds: [.recovery])
        }
    }

    @Test func aNewPasswordEndsTheOtherSessionsAndAnAddressMovesByItsLink() async throws {
        let fixture = try await Fixture()
        let user = try await fixture.signUp("ada@example.com")
        let first = try await fixture.accounts.verify(
            token: try await fixture.lastToken("ada@example.com"), kinds: [.signup])
        let (_, second) = try await fixture.accounts.signIn(
            email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: nil)
        let bearer = try await fixture.accounts.sessions.bearer("Bearer \(first.session.accessToken)", app: "demo")

        await #expect(throws: AccountError.samePassword) {
            try await fixture.accounts.update(
                AccountChanges(password: "correct horse battery"), for: bearer, redirectTo: nil)
        }
        let changed = try await fixture.accounts.update(
            AccountChanges(password: "a brand new passphrase", metadata: ["lang": "ar", "name": .null]), for: bearer,
            redirectTo: nil)
        #expect(changed.metadata == ["lang": "ar"])
        await #expect(throws: AccountError.sessionEnded) {
            try await fixture.accounts.sessions.bearer("Bearer \(second.accessToken)", app: "demo")
        }
        #expect(
            try await fixture.accounts.sessions.bearer("Bearer \(first.session.accessToken)", app: "demo") == bearer)
        await #expect(throws: AccountError.badAccessToken) {
            try await fixture.accounts.sessions.bearer("Bearer \(first.session.accessToken)", app: "other")
        }

        // Another user's address is refused; a free one moves only when its link is used.
        _ = try await fixture.signUp("grace@example.com")
        await #expect(throws: AccountError.emailExists) {
            try await fixture.accounts.update(AccountChanges(email: "grace@example.com"), for: bearer, redirectTo: nil)
        }
        _ = try await fixture.accounts.update(AccountChanges(email: "ada@new.example"), for: bearer, redirectTo: nil)
        #expect(try await fixture.accounts.sessions.users.user(id: user.id)?.email == "ada@example.com")
        let moved = try await fixture.accounts.verify(
            token: try await fixture.lastToken("ada@new.example", type: "email_change"), kinds: [.emailChange])
        #expect(moved.user.email == "ada@new.example")
        let directory = fixture.accounts.sessions.users
        #expect(try await directory.user(email: EmailAddress("ada@example.com")!) == nil)
        #expect(try await directory.user(email: EmailAddress("ada@new.example")!)?.id == user.id)

        // Access tokens stop at their expiry.
        fixture.clock.set(SessionFixtures.start + 301)
        await #expect(throws: AccountError.badAccessToken) {
            try await fixture.accounts.sessions.bearer("Bearer \(first.session.accessToken)", app: "demo")
        }
    }

    @Test func theSixDigitCodeStandsForItsLinkOnceAndFiveWrongCodesLockTheAddress() async throws {
        let fixture = try await Fixture()
        let user = try await fixture.signUp("ada@example.com")
        let message = try #require(
            try await fixture.store.query(
                OutboxSender.table, partition: "ada@example.com", sortKey: nil, limit: nil, ascending: true
            ).first)
        let text = try #require(message["text"]?.stringValue)
        let code = String(try #require(text.split(separator: "Or enter this code: ").last?.prefix(6)))
        #expect(code.allSatisfy(\.isNumber) && code.count == 6)
        // Only an HMAC of the code is stored.
        #expect(!"\(try await fixture.store.scan(EmailTokens.table, limit: nil))".contains(code))
        // Not a recovery's code; then right, once; then the link it stood for is used too.
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(email: "ada@example.com", code: code, kinds: [.recovery])
        }
        let verified = try await fixture.accounts.verify(email: "ada@example.com", code: code, kinds: [.signup])
        #expect(verified.user.id == user.id && !verified.user.emailIsPending)
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(email: "ada@example.com", code: code, kinds: [.signup])
        }
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: try await fixture.lastToken("ada@example.com"), kinds: [.signup])
        }

        // Another address: 5 wrong codes, and the right one is refused for the hour.
        _ = try await fixture.signUp("grace@example.com")
        let graceText = try #require(
            try await fixture.store.query(
                OutboxSender.table, partition: "grace@example.com", sortKey: nil, limit: nil, ascending: true
            ).first?["text"]?.stringValue)
        let graceCode = String(try #require(graceText.split(separator: "Or enter this code: ").last?.prefix(6)))
        for wrong in 0..<5 {
            let guess = PhoneCodes.sixDigits(UInt32((Int(graceCode)! + 1 + wrong) % 1_000_000))
            await #expect(throws: AccountError.linkExpired) {
                try await fixture.accounts.verify(email: "grace@example.com", code: guess, kinds: [.signup])
            }
        }
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(email: "grace@example.com", code: graceCode, kinds: [.signup])
        }
        // The lock is on codes only: the link still works.
        let link = try await fixture.lastToken("grace@example.com")
        #expect(try await fixture.accounts.verify(token: link, kinds: [.signup]).user.email == "grace@example.com")
    }
}
