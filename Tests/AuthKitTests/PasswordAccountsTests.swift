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
            let sessions = try SessionFixtures.sessions(store: store, clock: clock)
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

        /// Signs up, then sends its mail, as the function does after its answer.
        func signUp(_ email: String, _ password: String = "correct horse battery") async throws -> User {
            let (user, mail) = try await signUps.signUp(
                email: email, password: password, metadata: ["name": "Ada"], app: app, redirectTo: nil,
                sourceIP: "192.0.2.1")
            try await mail()
            return user
        }

        /// A confirmed account of `email` whose owner set `password` from the session its
        /// confirmation link started; that session.
        func confirmedAccount(
            _ email: String, _ password: String = "correct horse battery"
        ) async throws -> (user: User, session: SessionResponse) {
            _ = try await signUp(email, password)
            let verified = try await accounts.verify(token: try await lastToken(email), kinds: [.signup])
            let session = try #require(verified.session)
            _ = try await update(
                AccountChanges(password: password), for: try await bearer(session), redirectTo: nil, sourceIP: nil)
            return (try #require(verified.user), session)
        }

        /// `session` an hour and a second later, refreshed on the way (its tokens live 5
        /// minutes and an hour): no longer a recent sign-in.
        func aged(_ session: SessionResponse) async throws -> SessionResponse {
            clock.set(SessionFixtures.start + 3000)
            let halfway = try await accounts.sessions.refresh(token: session.refreshToken)
            clock.set(SessionFixtures.start + 3601)
            return try await accounts.sessions.refresh(token: halfway.refreshToken)
        }

        func bearer(_ session: SessionResponse) async throws -> AccessTokens.Bearer {
            try await accounts.sessions.bearer("Bearer \(session.accessToken)", app: "demo")
        }

        /// `accounts.update` as the route calls it: the bearer's user read first.
        func update(
            _ changes: AccountChanges, for bearer: AccessTokens.Bearer, redirectTo: String?, sourceIP: String?
        ) async throws -> User {
            guard let user = try await accounts.sessions.users.user(id: bearer.userID) else {
                throw AccountError.userNotFound
            }
            return try await accounts.update(
                changes, to: user, for: bearer, redirectTo: redirectTo, sourceIP: sourceIP)
        }

        /// The texts mailed to `recipient`, oldest first.
        func texts(_ recipient: String) async throws -> [String] {
            try await store.query(
                OutboxSender.table, partition: .string(recipient), sortKey: nil, limit: nil, ascending: true
            ).compactMap { $0["text"]?.stringValue }
        }

        /// The six-digit code of the last account email to `recipient` (the outbox's order is by
        /// time: a test that mails twice moves the clock between).
        func lastCode(_ recipient: String) async throws -> String {
            let text = try #require(try await texts(recipient).last)
            return String(try #require(text.split(separator: "Or enter this code: ").last?.prefix(6)))
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
        #expect(verified.user?.id == user.id && verified.user?.emailIsPending == false)
        #expect(verified.redirectTo == "http://127.0.0.1:3000/")
        let confirmation = try #require(verified.session)
        #expect(confirmation.user.id == user.id)
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: token, kinds: [.signup])
        }
        // The link proves the mailbox, not who signed up: the sign-up's password is gone, and
        // the owner sets one from the session the link started.
        #expect(try await PasswordCredentials.hash(userID: user.id, in: fixture.store) == nil)
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.signIn(
                email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: nil)
        }
        _ = try await fixture.update(
            AccountChanges(password: "correct horse battery"), for: try await fixture.bearer(confirmation),
            redirectTo: nil, sourceIP: nil)

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
        let (user, _) = try await fixture.confirmedAccount("ada@example.com")
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

    /// The account-takeover variant that needs no scanner: an attacker signs the address up
    /// first. The owner's own sign-up replaces that attempt (their password, a fresh email), and
    /// the attacker's link and password no longer open anything.
    @Test func aSignUpOfAPendingAddressReplacesTheEarlierAttempt() async throws {
        let fixture = try await Fixture()
        let planted = try await fixture.signUp("ada@example.com", "attacker passphrase")
        let plantedLink = try await fixture.lastToken("ada@example.com")
        let owner = try await fixture.signUp("ada@example.com", "owner passphrase here")
        #expect(owner.id != planted.id)
        #expect(try await fixture.links("ada@example.com").count == 2, "a fresh email for the newest sign-up")
        #expect(try await fixture.accounts.sessions.users.user(id: planted.id) == nil)
        #expect(try await PasswordCredentials.hash(userID: planted.id, in: fixture.store) == nil)
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: plantedLink, kinds: [.signup])
        }
        let ownerLink = try #require(try await fixture.tokens("ada@example.com").subtracting([plantedLink]).first)
        let verified = try await fixture.accounts.verify(token: ownerLink, kinds: [.signup])
        #expect(verified.user?.id == owner.id)
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.signIn(
                email: "ada@example.com", password: "attacker passphrase", app: fixture.app, sourceIP: nil)
        }
    }

    /// An unconfirmed sign-up is gone after a day: its user, index item and password expire,
    /// and the address signs up afresh.
    @Test func anUnconfirmedSignUpExpiresAfterADay() async throws {
        let fixture = try await Fixture()
        let pending = try await fixture.signUp("ada@example.com")
        let first = try await fixture.lastToken("ada@example.com")
        let directory = fixture.accounts.sessions.users
        fixture.clock.set(SessionFixtures.start + 86399)
        #expect(try await directory.user(email: EmailAddress("ada@example.com")!)?.id == pending.id)
        fixture.clock.set(SessionFixtures.start + 86401)
        #expect(try await directory.user(email: EmailAddress("ada@example.com")!) == nil)
        #expect(try await directory.user(id: pending.id) == nil)
        #expect(try await PasswordCredentials.hash(userID: pending.id, in: fixture.store) == nil)
        let again = try await fixture.signUp("ada@example.com")
        #expect(again.id != pending.id)
        // Confirmed, a user no longer expires.
        let second = try #require(try await fixture.tokens("ada@example.com").subtracting([first]).first)
        _ = try await fixture.accounts.verify(token: second, kinds: [.signup])
        fixture.clock.set(SessionFixtures.start + 86401 * 3)
        #expect(try await directory.user(email: EmailAddress("ada@example.com")!)?.id == again.id)
    }

    /// A sign-up of a confirmed address: the same answer as a new one, and its owner is mailed a
    /// notice with nothing to click (the same work after the answer as a new address's link).
    @Test func aConfirmedAddressSignsUpToTheSameAnswerAndItsOwnerGetsANotice() async throws {
        let fixture = try await Fixture()
        let (first, _) = try await fixture.confirmedAccount("ada@example.com")
        let mailed = try await fixture.links("ada@example.com")
        let second = try await fixture.signUp("ada@example.com", "another passphrase entirely")
        #expect(second.id != first.id && second.emailIsPending)
        let now = try await fixture.links("ada@example.com")
        #expect(now.count == mailed.count + 1 && now.filter(\.isEmpty).count == 1)
        let notice = try await fixture.store.query(
            OutboxSender.table, partition: "ada@example.com", sortKey: nil, limit: nil, ascending: true)
        #expect(notice.contains { $0["subject"]?.stringValue?.hasPrefix("Someone signed up for") == true })
        // The account's password still stands; the second was never stored.
        let stored = try #require(try await PasswordCredentials.hash(userID: first.id, in: fixture.store))
        #expect(
            try PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1)).check(
                "correct horse battery", against: stored) == .matches(needsRehash: false))
        #expect(try await fixture.accounts.sessions.users.user(id: second.id) == nil)
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
        _ = try await fixture.confirmedAccount("ada@example.com")
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
        // The answer comes before any email: the work returned sends it.
        let nobody = try await fixture.signUps.recover(
            email: "nobody@example.com", app: fixture.app, redirectTo: nil, sourceIP: nil)
        try await nobody()
        #expect(try await fixture.links("nobody@example.com").isEmpty)

        _ = try await fixture.signUp("ada@example.com")
        let mail = try await fixture.signUps.recover(
            email: "ada@example.com", app: fixture.app, redirectTo: "gatehouse-demo://reset", sourceIP: nil)
        #expect(try await fixture.tokens("ada@example.com", type: "recovery").isEmpty)
        try await mail()
        let token = try await fixture.lastToken("ada@example.com", type: "recovery")
        // A recovery link is not a sign-up's, and is not used up by trying it as one.
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: token, kinds: [.signup])
        }
        fixture.clock.set(SessionFixtures.start + 3599)
        let verified = try await fixture.accounts.verify(token: token, kinds: [.recovery])
        #expect(verified.redirectTo == "gatehouse-demo://reset" && verified.user?.emailIsPending == false)
        // Recovering an account never confirmed drops the password its sign-up chose.
        #expect(try await PasswordCredentials.hash(userID: try #require(verified.user).id, in: fixture.store) == nil)

        try await fixture.signUps.recover(email: "ada@example.com", app: fixture.app, redirectTo: nil, sourceIP: nil)()
        let late = try #require(
            try await fixture.tokens("ada@example.com", type: "recovery").subtracting([token]).first)
        fixture.clock.set(SessionFixtures.start + 3599 + 3600)
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: late, kinds: [.recovery])
        }
    }

    @Test func aNewPasswordEndsTheOtherSessions() async throws {
        let fixture = try await Fixture()
        let (_, first) = try await fixture.confirmedAccount("ada@example.com")
        let (_, second) = try await fixture.accounts.signIn(
            email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: nil)
        let bearer = try await fixture.bearer(first)

        await #expect(throws: AccountError.samePassword) {
            try await fixture.update(
                AccountChanges(password: "correct horse battery"), for: bearer, redirectTo: nil, sourceIP: nil)
        }
        let changed = try await fixture.update(
            AccountChanges(password: "a brand new passphrase", metadata: ["lang": "ar", "name": .null]), for: bearer,
            redirectTo: nil, sourceIP: nil)
        #expect(changed.metadata == ["lang": "ar"])
        await #expect(throws: AccountError.sessionEnded) {
            try await fixture.accounts.sessions.bearer("Bearer \(second.accessToken)", app: "demo")
        }
        #expect(try await fixture.bearer(first) == bearer)
        await #expect(throws: AccountError.badAccessToken) {
            try await fixture.accounts.sessions.bearer("Bearer \(first.accessToken)", app: "other")
        }
        // Access tokens stop at their expiry.
        fixture.clock.set(SessionFixtures.start + 301)
        await #expect(throws: AccountError.badAccessToken) {
            try await fixture.bearer(first)
        }
    }

    /// The second HIGH finding: an attacker's own account moved onto a victim's address by one
    /// click of the victim's link. Both addresses must confirm; no click signs anyone in; the
    /// old address is told.
    @Test func anAddressMovesOnlyWhenBothAddressesConfirmAndNoLinkSignsIn() async throws {
        let fixture = try await Fixture()
        let (user, session) = try await fixture.confirmedAccount("ada@example.com")
        let bearer = try await fixture.bearer(session)
        _ = try await fixture.update(
            AccountChanges(email: "ada@new.example"), for: bearer, redirectTo: nil, sourceIP: "192.0.2.9")
        let directory = fixture.accounts.sessions.users
        #expect(try await directory.user(id: user.id)?.email == "ada@example.com")
        let toNew = try await fixture.lastToken("ada@new.example", type: "email_change")
        let toOld = try await fixture.lastToken("ada@example.com", type: "email_change")
        #expect(try await fixture.texts("ada@example.com").contains { $0.contains("to ada@new.example") })

        // The new address alone: nothing moves, and no session.
        let half = try await fixture.accounts.verify(token: toNew, kinds: [.emailChange])
        #expect(half.change == .waitingForOtherAddress && half.session == nil && half.user == nil)
        #expect(try await directory.user(id: user.id)?.email == "ada@example.com")
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: toNew, kinds: [.emailChange])
        }
        // Then the old one: moved, still no session, and the old address told.
        let done = try await fixture.accounts.verify(token: toOld, kinds: [.emailChange])
        #expect(done.session == nil && done.user == nil)
        guard case .changed(let moved) = done.change else {
            Issue.record("not changed: \(String(describing: done.change))")
            return
        }
        #expect(moved.email == "ada@new.example" && moved.id == user.id)
        #expect(try await directory.user(email: EmailAddress("ada@example.com")!) == nil)
        #expect(try await directory.user(email: EmailAddress("ada@new.example")!)?.id == user.id)
        #expect(try await fixture.texts("ada@example.com").contains { $0.contains("is now ada@new.example") })
    }

    /// `PUT /user {email}` answers alike for a taken and a free address: the taken address's
    /// owner gets a notice and no link. Requests are counted per user before any lookup.
    @Test func anAddressChangeDoesNotTellWhetherTheAddressIsTaken() async throws {
        let fixture = try await Fixture()
        let (grace, _) = try await fixture.confirmedAccount("grace@example.com")
        let (ada, session) = try await fixture.confirmedAccount("ada@example.com")
        let bearer = try await fixture.bearer(session)
        let taken = try await fixture.update(
            AccountChanges(email: "grace@example.com"), for: bearer, redirectTo: nil, sourceIP: nil)
        let free = try await fixture.update(
            AccountChanges(email: "free@example.com"), for: bearer, redirectTo: nil, sourceIP: nil)
        #expect(taken == free && taken.id == ada.id && taken.email == "ada@example.com")
        #expect(try await fixture.tokens("grace@example.com", type: "email_change").isEmpty)
        #expect(try await fixture.texts("grace@example.com").contains { $0.contains("already has an account") })
        // The requester's own inbox tells nothing either: a link to the current address each time.
        #expect(try await fixture.tokens("ada@example.com", type: "email_change").count == 2)
        #expect(try await fixture.accounts.sessions.users.user(id: grace.id)?.email == "grace@example.com")
        // Three more (five in the hour), then the user is limited whatever the address.
        for index in 0..<3 {
            _ = try await fixture.update(
                AccountChanges(email: "try\(index)@example.com"), for: bearer, redirectTo: nil, sourceIP: nil)
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.update(
                AccountChanges(email: "grace@example.com"), for: bearer, redirectTo: nil, sourceIP: nil)
        }
    }

    /// A new password or address from a session older than the window needs the nonce
    /// `/reauthenticate` mails; a recovery's session is new, so recent.
    @Test func anOldSessionNeedsTheMailedNonceToChangeThePasswordOrAddress() async throws {
        let fixture = try await Fixture()
        let (user, session) = try await fixture.confirmedAccount("ada@example.com")
        let bearer = try await fixture.bearer(session)
        let stale = try await fixture.aged(session)
        let staleBearer = try await fixture.bearer(stale)
        #expect(staleBearer.sessionID == bearer.sessionID)
        await #expect(throws: AccountError.reauthenticationNeeded) {
            try await fixture.update(
                AccountChanges(password: "a brand new passphrase"), for: staleBearer, redirectTo: nil, sourceIP: nil)
        }
        await #expect(throws: AccountError.reauthenticationNeeded) {
            try await fixture.update(
                AccountChanges(email: "ada@new.example"), for: staleBearer, redirectTo: nil, sourceIP: nil)
        }
        // Metadata alone needs nothing.
        _ = try await fixture.update(
            AccountChanges(metadata: ["lang": "fr"]), for: staleBearer, redirectTo: nil, sourceIP: nil)

        try await fixture.accounts.reauthentication.send(to: user, app: fixture.app, sourceIP: nil)
        let text = try #require(try await fixture.texts("ada@example.com").last { $0.contains("Enter this code") })
        let nonce = String(try #require(text.split(separator: "change to your Demo app account: ").last?.prefix(6)))
        #expect(nonce.count == 6 && nonce.allSatisfy(\.isNumber), "\(text)")
        #expect(!"\(try await fixture.store.scan(EmailTokens.table, limit: nil))".contains(nonce))
        let wrong = PhoneCodes.sixDigits(UInt32((Int(nonce)! + 1) % 1_000_000))
        await #expect(throws: AccountError.reauthenticationNotValid) {
            try await fixture.update(
                AccountChanges(password: "a brand new passphrase", nonce: wrong), for: staleBearer, redirectTo: nil,
                sourceIP: nil)
        }
        _ = try await fixture.update(
            AccountChanges(password: "a brand new passphrase", nonce: nonce), for: staleBearer, redirectTo: nil,
            sourceIP: nil)
        await #expect(throws: AccountError.reauthenticationNotValid, "a nonce works once") {
            try await fixture.update(
                AccountChanges(password: "another new passphrase", nonce: nonce), for: staleBearer, redirectTo: nil,
                sourceIP: nil)
        }

        // A recovery link's session is new: it sets a password without a nonce.
        try await fixture.signUps.recover(email: "ada@example.com", app: fixture.app, redirectTo: nil, sourceIP: nil)()
        let recovered = try await fixture.accounts.verify(
            token: try await fixture.lastToken("ada@example.com", type: "recovery"), kinds: [.recovery])
        _ = try await fixture.update(
            AccountChanges(password: "recovered passphrase 42"), for: try await fixture.bearer(recovered.session!),
            redirectTo: nil, sourceIP: nil)
    }

    /// Five wrong nonces lock the user's nonces for the hour: the right one is refused too.
    @Test func fiveWrongNoncesLockReauthentication() async throws {
        let fixture = try await Fixture()
        let (user, session) = try await fixture.confirmedAccount("ada@example.com")
        let bearer = try await fixture.bearer(try await fixture.aged(session))
        try await fixture.accounts.reauthentication.send(to: user, app: fixture.app, sourceIP: nil)
        let text = try #require(try await fixture.texts("ada@example.com").last { $0.contains("Enter this code") })
        let nonce = String(try #require(text.split(separator: "change to your Demo app account: ").last?.prefix(6)))
        for offset in 1...5 {
            await #expect(throws: AccountError.reauthenticationNotValid) {
                try await fixture.accounts.reauthentication.require(
                    bearer, nonce: PhoneCodes.sixDigits(UInt32((Int(nonce)! + offset) % 1_000_000)), sourceIP: nil)
            }
        }
        await #expect(throws: AccountError.reauthenticationNotValid) {
            try await fixture.accounts.reauthentication.require(bearer, nonce: nonce, sourceIP: nil)
        }
    }

    /// Deleting the account from an old session takes the mailed nonce, as a password change
    /// does: without one it is `reauthenticationNeeded`, with a wrong one `reauthenticationNotValid`
    /// (the account stays either way), with the right one it is gone, through the nonce check a
    /// function holds without any sender (`ReauthenticationNonces`, as `DeleteAccount` does).
    @Test func anOldSessionDeletesTheAccountOnlyWithTheMailedNonce() async throws {
        let fixture = try await Fixture()
        let (user, session) = try await fixture.confirmedAccount("ada@example.com")
        let stale = try await fixture.bearer(try await fixture.aged(session))
        let accounts = Accounts(store: fixture.store, clock: fixture.clock)
        let nonces = ReauthenticationNonces(store: fixture.store, clock: fixture.clock, secret: nil)
        func delete(_ nonce: String?) async throws {
            try await accounts.delete(
                userID: user.id, fromSession: stale.sessionID, tokenAAL: nil,
                recentWithin: Reauthentication.defaultWindow,
                nonce: nonce, checkedBy: nonces, sourceIP: "192.0.2.1")
        }
        await #expect(throws: AccountError.reauthenticationNeeded) { try await delete(nil) }
        try await fixture.accounts.reauthentication.send(to: user, app: fixture.app, sourceIP: nil)
        let text = try #require(try await fixture.texts("ada@example.com").last { $0.contains("Enter this code") })
        // The one nonce serves every change that needs it: its mail says deleting is one.
        #expect(text.contains("deleting the account"))
        let nonce = String(try #require(text.split(separator: "change to your Demo app account: ").last?.prefix(6)))
        await #expect(throws: AccountError.reauthenticationNotValid) {
            try await delete(PhoneCodes.sixDigits(UInt32((Int(nonce)! + 1) % 1_000_000)))
        }
        #expect(try await fixture.accounts.sessions.users.user(id: user.id) != nil)
        // From a session that has ended (an authorizer's cached answer), even the right nonce is
        // refused, and not used up.
        await #expect(throws: AccountError.sessionEnded) {
            try await accounts.delete(
                userID: user.id, fromSession: "ended", tokenAAL: nil, recentWithin: Reauthentication.defaultWindow,
                nonce: nonce,
                checkedBy: nonces, sourceIP: "192.0.2.1")
        }
        try await delete(nonce)
        #expect(try await fixture.accounts.sessions.users.user(id: user.id) == nil)
    }

    /// The code stands for its link, once. Wrong codes count against the code that was mailed:
    /// after five it is dead, but nothing locks the address: guesses before a code was mailed
    /// count against nothing, and the next code mailed works. Before, five wrong codes from
    /// anyone locked the address's codes for an hour, the owner's next one included.
    @Test func theSixDigitCodeStandsForItsLinkOnceAndDiesAfterFiveWrongCodes() async throws {
        let fixture = try await Fixture()
        let user = try await fixture.signUp("ada@example.com")
        let code = try await fixture.lastCode("ada@example.com")
        #expect(code.allSatisfy(\.isNumber) && code.count == 6)
        // Only an HMAC of the code is stored.
        #expect(!"\(try await fixture.store.scan(EmailTokens.table, limit: nil))".contains(code))
        // Not a recovery's code; then right, once; then the link it stood for is used too.
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(
                email: "ada@example.com", code: code, kinds: [.recovery], sourceIP: nil, app: "demo")
        }
        let verified = try await fixture.accounts.verify(
            email: "ada@example.com", code: code, kinds: [.signup], sourceIP: nil, app: "demo")
        #expect(verified.user?.id == user.id && verified.user?.emailIsPending == false)
        // The code keeps the password chosen at sign-up (`SignUpPassword.keptByCode`).
        let signedIn = try await fixture.accounts.signIn(
            email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: "192.0.2.1")
        #expect(signedIn.user.id == user.id)
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(
                email: "ada@example.com", code: code, kinds: [.signup], sourceIP: nil, app: "demo")
        }
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: try await fixture.lastToken("ada@example.com"), kinds: [.signup])
        }

        // Another address: a stranger's guesses before any code was mailed count against nothing.
        for index in 0..<6 {
            await #expect(throws: AccountError.linkExpired) {
                try await fixture.accounts.verify(
                    email: "grace@example.com", code: "123456", kinds: [.signup], sourceIP: "198.51.100.\(index)",
                    app: "demo")
            }
        }
        _ = try await fixture.signUp("grace@example.com")
        let graceCode = try await fixture.lastCode("grace@example.com")
        // Five wrong codes kill it: the right one is refused after them.
        for wrong in 0..<5 {
            let guess = PhoneCodes.sixDigits(UInt32((Int(graceCode)! + 1 + wrong) % 1_000_000))
            await #expect(throws: AccountError.linkExpired) {
                try await fixture.accounts.verify(
                    email: "grace@example.com", code: guess, kinds: [.signup], sourceIP: "203.0.113.\(wrong)",
                    app: "demo")
            }
        }
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(
                email: "grace@example.com", code: graceCode, kinds: [.signup], sourceIP: nil, app: "demo")
        }
        // The link it stood for still works; and a recovery's code, mailed after, works too.
        let link = try await fixture.lastToken("grace@example.com")
        #expect(try await fixture.accounts.verify(token: link, kinds: [.signup]).user?.email == "grace@example.com")
        fixture.clock.set(SessionFixtures.start + 1)  // the outbox sorts by time: the recovery after
        try await fixture.signUps.recover(
            email: "grace@example.com", app: fixture.app, redirectTo: nil, sourceIP: "192.0.2.1")()
        let recovered = try await fixture.accounts.verify(
            email: "grace@example.com", code: try await fixture.lastCode("grace@example.com"), kinds: [.recovery],
            sourceIP: nil, app: "demo")
        #expect(recovered.user?.email == "grace@example.com")
    }

    /// A sign-up that replaced another attempt still waiting is contested: the address's owner,
    /// whose own attempt someone replaced, may type the newest code, that someone's. Its code
    /// confirms, but keeps no password.
    @Test func aContestedSignUpsCodeKeepsNoPassword() async throws {
        let fixture = try await Fixture()
        _ = try await fixture.signUp("ada@example.com", "the owner's own password")
        fixture.clock.set(SessionFixtures.start + 1)
        let replacing = try await fixture.signUp("ada@example.com", "someone else's password")
        let verified = try await fixture.accounts.verify(
            email: "ada@example.com", code: try await fixture.lastCode("ada@example.com"), kinds: [.signup],
            sourceIP: nil, app: "demo")
        #expect(verified.user?.id == replacing.id && verified.user?.emailIsPending == false)
        for password in ["the owner's own password", "someone else's password"] {
            await #expect(throws: AccountError.invalidCredentials) {
                try await fixture.accounts.signIn(
                    email: "ada@example.com", password: password, app: fixture.app, sourceIP: "192.0.2.1")
            }
        }
    }

    /// Guessers with many sources cannot keep drawing fresh codes with fresh tries at one
    /// address: past 30 wrong codes in an hour its codes are refused for the hour, the right one
    /// too, while the link mailed with it still signs its owner in. One source adds at most 5 to
    /// that count, so no single source can switch an address's codes off.
    @Test func manyWrongCodesAtOneAddressStopItsCodesButNeverItsLinks() async throws {
        let fixture = try await Fixture()
        _ = try await fixture.signUp("ada@example.com")
        let code = try await fixture.lastCode("ada@example.com")
        // One source: 5 wrong codes, then its tries at the address are refused; the owner's code works.
        for _ in 0..<EmailCodes.wrongCodesPerAddressAndSource.limit + 3 {
            await #expect(throws: AccountError.linkExpired) {
                try await fixture.accounts.verify(
                    email: "ada@example.com", code: "123456", kinds: [.recovery], sourceIP: "203.0.113.9", app: "demo")
            }
        }
        _ = try await fixture.accounts.verify(
            email: "ada@example.com", code: code, kinds: [.signup], sourceIP: "192.0.2.1", app: "demo")
        _ = try await fixture.signUp("grace@example.com")
        let graceCode = try await fixture.lastCode("grace@example.com")
        // Many sources: past the address's 30, even the right code is refused; the link works.
        for index in 0..<EmailCodes.wrongCodesPerAddress.limit {
            await #expect(throws: AccountError.linkExpired) {
                try await fixture.accounts.verify(
                    email: "grace@example.com", code: "123456", kinds: [.recovery], sourceIP: "198.51.100.\(index)",
                    app: "demo")
            }
        }
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(
                email: "grace@example.com", code: graceCode, kinds: [.signup], sourceIP: nil, app: "demo")
        }
        let link = try await fixture.lastToken("grace@example.com")
        #expect(try await fixture.accounts.verify(token: link, kinds: [.signup]).user?.email == "grace@example.com")
    }

    /// A stranger's recoveries and sign-ups of an address, from sources of their own, never use
    /// up its owner's allowance: after the stranger's five (and their 429), the owner's recovery
    /// is counted and mailed. Before, the address had one allowance of 5 an hour, whoever asked.
    @Test func aStrangersRequestsNeverUseUpTheOwnersMail() async throws {
        let fixture = try await Fixture()
        _ = try await fixture.confirmedAccount("ada@example.com")
        for minute in 0..<60 {
            fixture.clock.set(SessionFixtures.start + Double(minute) * 60)
            let source = "198.51.100.\(minute % 12)"
            _ = try await fixture.signUps.recover(
                email: "ada@example.com", app: fixture.app, redirectTo: nil, sourceIP: source)
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600 - 59 * 60)) {
            _ = try await fixture.signUps.recover(
                email: "ada@example.com", app: fixture.app, redirectTo: nil, sourceIP: "198.51.100.11")
        }
        try await fixture.signUps.recover(
            email: "ada@example.com", app: fixture.app, redirectTo: nil, sourceIP: "192.0.2.1")()
        let mails = try await fixture.store.query(
            OutboxSender.table, partition: "ada@example.com", sortKey: nil, limit: nil, ascending: true)
        #expect(mails.last?["subject"]?.stringValue?.hasPrefix("Reset your password") == true)
    }

    /// One source guessing six-digit codes across many addresses, one try each (under every
    /// address's lock): past the source's limit it is refused before any code is compared, even a
    /// right one. Then many sources across one app: past the app's limit every source is refused
    /// for that app. Before, only each address's tries were counted.
    @Test func codeGuessesAreLimitedPerSourceAndPerAppAcrossAddresses() async throws {
        let fixture = try await Fixture()
        _ = try await fixture.signUp("ada@example.com")
        let code = try await fixture.lastCode("ada@example.com")
        func guess(_ index: Int, from source: String) async {
            await #expect(throws: AccountError.linkExpired) {
                try await fixture.accounts.verify(
                    email: "guess\(index)@example.com", code: "123456", kinds: [.signup], sourceIP: source, app: "demo")
            }
        }
        for index in 0..<CodeGuesses.perSourceIPLimit { await guess(index, from: "192.0.2.7") }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.accounts.verify(
                email: "ada@example.com", code: code, kinds: [.signup], sourceIP: "192.0.2.7", app: "demo")
        }

        for index in CodeGuesses.perSourceIPLimit..<CodeGuesses.perAppLimit {
            await guess(index, from: "198.51.100.\(index / (CodeGuesses.perSourceIPLimit - 1))")
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.accounts.verify(
                email: "ada@example.com", code: code, kinds: [.signup], sourceIP: "203.0.113.1", app: "demo")
        }
        let verified = try await fixture.accounts.verify(
            email: "ada@example.com", code: code, kinds: [.signup], sourceIP: "203.0.113.1", app: "other")
        #expect(verified.user?.email == "ada@example.com")
    }
}
