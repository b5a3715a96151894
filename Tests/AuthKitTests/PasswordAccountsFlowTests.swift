import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// Which flow a password account's link takes: a link sent with a PKCE challenge, followed by
/// its button, returns an auth code (no session, no token in the redirect) that only the
/// challenge's verifier exchanges; a link sent without one, or used by the app's own call,
/// starts the session itself.
struct PasswordAccountsFlowTests {
    typealias Fixture = PasswordAccountsTests.Fixture
    static let verifier = FlowCodesTests.verifier
    static let challenge = FlowCodesTests.challenge

    func signUp(_ fixture: Fixture, _ email: String, challenge: String?) async throws -> User {
        let (user, mail) = try await fixture.signUps.signUp(
            email: email, password: "correct horse battery", metadata: [:], app: fixture.app,
            redirectTo: "gatehouse-demo://welcome", sourceIP: "192.0.2.1", codeChallenge: challenge)
        try await mail()
        return user
    }

    @Test func aPKCESignUpsLinkReturnsACodeThatOnlyItsVerifierExchanges() async throws {
        let fixture = try await Fixture()
        let user = try await signUp(fixture, "ada@example.com", challenge: Self.challenge)
        let token = try await fixture.lastToken("ada@example.com")
        let followed = try await fixture.accounts.follow(token: token, kinds: [.signup])
        let code = try #require(followed.authCode)
        #expect(followed.session == nil && followed.redirectTo == "gatehouse-demo://welcome")
        #expect(followed.user?.id == user.id && followed.user?.emailIsPending == false)
        // The sign-up's password is held: unusable until the flow ends with its verifier.
        #expect(try await PasswordCredentials.hash(userID: user.id, in: fixture.store) == nil)
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.signIn(
                email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: "192.0.2.1")
        }
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.follow(token: token, kinds: [.signup])
        }

        let (signedIn, session) = try await fixture.accounts.signIn(
            authCode: code, codeVerifier: Self.verifier, app: fixture.app, sourceIP: "192.0.2.1")
        #expect(signedIn.id == user.id && signedIn.lastSignInAt == SessionFixtures.start * 1000)
        #expect(try await fixture.bearer(session).userID == user.id)
        await #expect(throws: FlowError.notFound) {
            try await fixture.accounts.signIn(
                authCode: code, codeVerifier: Self.verifier, app: fixture.app, sourceIP: "192.0.2.1")
        }
        // The sign-up's own verifier ended the flow: its password is the account's, for good.
        let again = try await fixture.accounts.signIn(
            email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: "192.0.2.1")
        #expect(again.user.id == user.id)
        let stored = try await fixture.store.get(PasswordCredentials.table, key: ItemKey(.string(user.id)))
        #expect(stored?["ttl"] == nil && stored?["heldFor"] == nil)
    }

    /// A password held for a sign-up's challenge is released only by a code of that user's own
    /// flow with that challenge: a stranger's flow with the same challenge (their own account's
    /// magic link) or the user's flow with another challenge leaves it held.
    @Test func aHeldPasswordIsReleasedOnlyByItsOwnFlow() async throws {
        let fixture = try await Fixture()
        let victim = try await signUp(fixture, "victim@example.com", challenge: Self.challenge)
        let followed = try await fixture.accounts.follow(
            token: try await fixture.lastToken("victim@example.com"), kinds: [.signup])
        #expect(followed.authCode != nil)
        let flows = FlowCodes(store: fixture.store, clock: fixture.clock)
        let stranger = try await fixture.signUps.users.findOrCreate(
            email: try #require(EmailAddress("mallory@example.com"))
        ).user
        let theirs = try await flows.mint(user: stranger, app: "demo", provider: "email", challenge: Self.challenge)
        _ = try await fixture.accounts.signIn(
            authCode: theirs, codeVerifier: Self.verifier, app: fixture.app, sourceIP: "192.0.2.9")
        let otherVerifier = String(repeating: "o", count: 43)
        let another = try await flows.mint(
            user: victim, app: "demo", provider: "email", challenge: PKCE.challenge(for: otherVerifier))
        _ = try await fixture.accounts.signIn(
            authCode: another, codeVerifier: otherVerifier, app: fixture.app, sourceIP: "192.0.2.9")
        #expect(try await PasswordCredentials.hash(userID: victim.id, in: fixture.store) == nil)
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.signIn(
                email: "victim@example.com", password: "correct horse battery", app: fixture.app,
                sourceIP: "192.0.2.1")
        }
    }

    @Test func aLinkWithoutAChallengeOrUsedByTheAppsCallStartsTheSession() async throws {
        let fixture = try await Fixture()
        _ = try await signUp(fixture, "ada@example.com", challenge: nil)
        let implicit = try await fixture.accounts.follow(
            token: try await fixture.lastToken("ada@example.com"), kinds: [.signup])
        #expect(implicit.authCode == nil && implicit.session != nil)

        // A PKCE link used by the app's own call starts the session for its verifier only: a
        // leaked or forwarded link gives nobody else a session (and is spent).
        _ = try await signUp(fixture, "grace@example.com", challenge: Self.challenge)
        let called = try await fixture.accounts.verify(
            token: try await fixture.lastToken("grace@example.com"), kinds: [.signup], codeVerifier: Self.verifier)
        #expect(called.authCode == nil && called.session != nil)
        _ = try await signUp(fixture, "linus@example.com", challenge: Self.challenge)
        let leaked = try await fixture.lastToken("linus@example.com")
        await #expect(throws: FlowError.badVerifier) {
            try await fixture.accounts.verify(token: leaked, kinds: [.signup])
        }
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.accounts.verify(token: leaked, kinds: [.signup], codeVerifier: Self.verifier)
        }
    }

    /// Recovery through PKCE: the code's session is a fresh sign-in, so it sets a new password.
    @Test func aPKCERecoveryGivesASessionThatSetsTheNewPassword() async throws {
        let fixture = try await Fixture()
        let (user, _) = try await fixture.confirmedAccount("ada@example.com")
        fixture.clock.set(SessionFixtures.start + 7200)
        try await fixture.signUps.recover(
            email: "ada@example.com", app: fixture.app, redirectTo: nil, sourceIP: nil, codeChallenge: Self.challenge)()
        let followed = try await fixture.accounts.follow(
            token: try await fixture.lastToken("ada@example.com", type: "recovery"), kinds: [.recovery])
        let code = try #require(followed.authCode)
        #expect(followed.session == nil)
        let (_, session) = try await fixture.accounts.signIn(
            authCode: code, codeVerifier: Self.verifier, app: fixture.app, sourceIP: nil)
        _ = try await fixture.update(
            AccountChanges(password: "recovered passphrase 42"), for: try await fixture.bearer(session),
            redirectTo: nil, sourceIP: nil)
        let (signedIn, _) = try await fixture.accounts.signIn(
            email: "ada@example.com", password: "recovered passphrase 42", app: fixture.app, sourceIP: nil)
        #expect(signedIn.id == user.id)
    }

    /// HIGH (review): someone else's sign-up of an address, then the owner's resend with the
    /// owner's own challenge, used with its verifier by the button or by the app's call: the
    /// address is confirmed and the stranger's password is gone, not kept for the owner's
    /// challenge.
    @Test(arguments: [true, false])
    func aResentConfirmationNeverKeepsSomeoneElsesPassword(byButton: Bool) async throws {
        let fixture = try await Fixture()
        let mallory = PKCE.challenge(for: String(repeating: "m", count: 43))
        let user = try await signUp(fixture, "victim@example.com", challenge: mallory)
        let first = try await fixture.tokens("victim@example.com")
        let mail = try await fixture.signUps.resendConfirmation(
            email: "victim@example.com", app: fixture.app, redirectTo: "gatehouse-demo://welcome",
            sourceIP: "192.0.2.2", codeChallenge: Self.challenge)
        try await mail()
        let resent = try #require(try await fixture.tokens("victim@example.com").subtracting(first).first)
        if byButton {
            let followed = try await fixture.accounts.follow(token: resent, kinds: [.signup])
            _ = try await fixture.accounts.signIn(
                authCode: try #require(followed.authCode), codeVerifier: Self.verifier, app: fixture.app,
                sourceIP: "192.0.2.2")
        } else {
            _ = try await fixture.accounts.verify(token: resent, kinds: [.signup], codeVerifier: Self.verifier)
        }
        #expect(try await fixture.store.get(PasswordCredentials.table, key: ItemKey(.string(user.id))) == nil)
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.signIn(
                email: "victim@example.com", password: "correct horse battery", app: fixture.app,
                sourceIP: "192.0.2.9")
        }
    }

    /// A magic link sent with `create_user: false` to an address whose sign-up waits for its
    /// link (someone else's, perhaps) confirms the address and drops that sign-up's password,
    /// as every other link does; it creates no user.
    @Test func aNoNewUserMagicLinkConfirmsAWaitingSignUpAndDropsItsPassword() async throws {
        let fixture = try await Fixture()
        let user = try await signUp(fixture, "victim@example.com", challenge: nil)
        let links = MagicLinks(
            store: fixture.store, clock: fixture.clock,
            sender: OutboxSender(store: fixture.store, clock: fixture.clock),
            issuer: "http://127.0.0.1:3000")
        let mail = try await links.prepare(
            email: "victim@example.com", app: "demo", platform: "web", sourceIP: "192.0.2.3", codeChallenge: nil,
            redirectTo: nil, metadata: [:], createUser: false)
        try await mail()
        let link = try #require(try await fixture.links("victim@example.com").last { $0.contains("email-callback") })
        let token = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value)
        let (signedIn, _) = try await links.signIn(token: token)
        #expect(signedIn.id == user.id && !signedIn.emailIsPending)
        #expect(try await fixture.store.get(PasswordCredentials.table, key: ItemKey(.string(user.id))) == nil)

        let none = try await links.prepare(
            email: "nobody@example.com", app: "demo", platform: "web", sourceIP: "192.0.2.3", codeChallenge: nil,
            redirectTo: nil, metadata: [:], createUser: false)
        try await none()
        #expect(try await fixture.links("nobody@example.com").isEmpty)
        #expect(try await fixture.signUps.users.user(email: try #require(EmailAddress("nobody@example.com"))) == nil)
    }
}

/// The implicit flow's confirm page: the password chosen at sign-up, given right, is kept; a
/// wrong one leaves the link unused; tries are counted per address; an expired link asks nothing.
struct ImplicitSignUpPasswordTests {
    typealias Fixture = PasswordAccountsTests.Fixture

    @Test func theRightPasswordIsKeptAWrongOneLeavesTheLinkUnused() async throws {
        let fixture = try await Fixture()
        let user = try await fixture.signUp("ada@example.com")
        let token = try await fixture.lastToken("ada@example.com")
        #expect(try await fixture.accounts.asksForSignUpPassword(token: token))
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.follow(
                token: token, kinds: [.signup], signUpPassword: "wrong horse battery", sourceIP: "192.0.2.1")
        }
        #expect(try await fixture.accounts.asksForSignUpPassword(token: token), "the link is unused")
        let verified = try await fixture.accounts.follow(
            token: token, kinds: [.signup], signUpPassword: "correct horse battery", sourceIP: "192.0.2.1")
        #expect(verified.session != nil && verified.user?.emailIsPending == false)
        let stored = try await fixture.store.get(PasswordCredentials.table, key: ItemKey(.string(user.id)))
        #expect(stored?["hash"] != nil && stored?["ttl"] == nil)
        #expect(try await !fixture.accounts.asksForSignUpPassword(token: token), "used")
    }

    @Test func fiveWrongTriesLockTheAddressAndAnExpiredLinkAsksNothing() async throws {
        let fixture = try await Fixture()
        _ = try await fixture.signUp("ada@example.com")
        let token = try await fixture.lastToken("ada@example.com")
        for _ in 0..<5 {
            await #expect(throws: AccountError.invalidCredentials) {
                try await fixture.accounts.follow(
                    token: token, kinds: [.signup], signUpPassword: "wrong horse battery", sourceIP: "192.0.2.1")
            }
        }
        await #expect(throws: SignInError.self) {
            try await fixture.accounts.follow(
                token: token, kinds: [.signup], signUpPassword: "correct horse battery", sourceIP: "192.0.2.2")
        }
        fixture.clock.set(SessionFixtures.start + 3601)
        #expect(try await !fixture.accounts.asksForSignUpPassword(token: token))
    }
}
