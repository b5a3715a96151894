import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// One verify route, two kinds of emailed link: where the token is stored decides what using it
/// does, and a sign-in link is used only where the request allows one.
struct EmailedLinksTests {
    struct Fixture {
        let accounts: PasswordAccountsTests.Fixture
        let magicLinks: MagicLinks
        let links: EmailedLinks

        init() async throws {
            accounts = try await PasswordAccountsTests.Fixture()
            magicLinks = MagicLinks(
                store: accounts.store, clock: accounts.clock,
                sender: OutboxSender(store: accounts.store, clock: accounts.clock), issuer: "http://127.0.0.1:3000",
                secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)))
            links = EmailedLinks(accounts: accounts.accounts, magicLinks: magicLinks)
        }

        /// The token of the sign-in link `/otp` mails to `email` with a `redirect_to`.
        func signInLink(_ email: String, challenge: String? = nil) async throws -> String {
            try await magicLinks.send(
                email: email, app: "demo", platform: nil, sourceIP: "192.0.2.1", codeChallenge: challenge,
                redirectTo: "http://127.0.0.1:3000/welcome")
            return try await accounts.lastToken(email, type: "magiclink")
        }
    }

    @Test func aSignInLinkIsUsedOnlyWhereTheRequestAllowsOne() async throws {
        let fixture = try await Fixture()
        let token = try await fixture.signInLink("ada@example.com")
        #expect(try await fixture.links.redirect(for: token, requested: nil) == "http://127.0.0.1:3000/welcome")
        // A `recovery` request does not take it, and does not spend it.
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.links.follow(token, kinds: [.recovery], signInLinks: false)
        }
        let verified = try await fixture.links.follow(token, kinds: [.signup], signInLinks: true)
        #expect(verified.isSignInLink && verified.user?.email == "ada@example.com" && verified.session != nil)
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.links.follow(token, kinds: [.signup], signInLinks: true)
        }
    }

    @Test func aSignInLinkOfThePKCEFlowGivesACodeOrNeedsItsVerifier() async throws {
        let fixture = try await Fixture()
        let verifier = String(repeating: "v", count: 50)
        let pressed = try await fixture.links.follow(
            try await fixture.signInLink("ada@example.com", challenge: PKCE.challenge(for: verifier)),
            kinds: [.signup], signInLinks: true)
        #expect(pressed.isSignInLink && pressed.authCode != nil && pressed.session == nil)
        let posted = try await fixture.signInLink("bob@example.com", challenge: PKCE.challenge(for: verifier))
        await #expect(throws: FlowError.badVerifier) {
            try await fixture.links.verify(posted, kinds: [.signup], signInLinks: true, codeVerifier: nil)
        }
    }

    /// The `/otp` email's six-digit code stands for its sign-in link (Supabase's
    /// `verifyOTP(email:token:type: .email)`): only where the request allows sign-in links, only
    /// for the app it was mailed for, once, and its link is used with it. Like Supabase's, it
    /// needs no PKCE verifier: only the mailbox's reader has it.
    @Test func aSignInLinksCodeSignsInOnceForItsAppOnly() async throws {
        let fixture = try await Fixture()
        _ = try await AppRegistry(store: fixture.accounts.store).add(
            App(id: "other", name: "Other", baseURL: "https://other.example", mobileScheme: nil, publicKeys: []))
        let verifier = String(repeating: "v", count: 50)
        let token = try await fixture.signInLink("ada@example.com", challenge: PKCE.challenge(for: verifier))
        let code = try await fixture.accounts.lastCode("ada@example.com")
        #expect(!"\(try await fixture.accounts.store.scan(MagicLinks.table, limit: nil))".contains(code))
        for (signInLinks, app) in [(false, "demo"), (true, "other")] {
            await #expect(throws: AccountError.linkExpired) {
                try await fixture.links.verify(
                    email: "ada@example.com", code: code, kinds: [.signup], signInLinks: signInLinks, sourceIP: nil,
                    app: app)
            }
        }
        let verified = try await fixture.links.verify(
            email: "ada@EXAMPLE.com", code: code, kinds: [.signup], signInLinks: true, sourceIP: nil, app: "demo")
        #expect(verified.isSignInLink && verified.user?.email == "ada@example.com" && verified.session != nil)
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.links.verify(
                email: "ada@example.com", code: code, kinds: [.signup], signInLinks: true, sourceIP: nil, app: "demo")
        }
        await #expect(throws: AccountError.linkExpired) {
            try await fixture.links.verify(token, kinds: [.signup], signInLinks: true, codeVerifier: verifier)
        }
    }

    /// Where sign-in links are allowed (`type` `email`), a sign-up's code still works, as the
    /// account's; the `/otp` code mailed after it works too, each for its own link.
    @Test func aSignUpsCodeAndASignInCodeAreEachTheirOwnLinks() async throws {
        let fixture = try await Fixture()
        let user = try await fixture.accounts.signUp("ada@example.com")
        let signUpCode = try await fixture.accounts.lastCode("ada@example.com")
        fixture.accounts.clock.set(fixture.accounts.clock.now + 1)
        _ = try await fixture.signInLink("ada@example.com")
        let signInCode = try await fixture.accounts.lastCode("ada@example.com")
        #expect(signUpCode != signInCode)
        let confirmed = try await fixture.links.verify(
            email: "ada@example.com", code: signUpCode, kinds: [.signup], signInLinks: true, sourceIP: nil, app: "demo")
        #expect(!confirmed.isSignInLink && confirmed.user?.id == user.id && confirmed.user?.emailIsPending == false)
        // Typed where sign-in codes go, it may be someone else's sign-up's: its password went.
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.accounts.signIn(
                email: "ada@example.com", password: "correct horse battery", app: fixture.accounts.app,
                sourceIP: "192.0.2.1")
        }
        let signedIn = try await fixture.links.verify(
            email: "ada@example.com", code: signInCode, kinds: [.signup], signInLinks: true, sourceIP: nil, app: "demo")
        #expect(signedIn.isSignInLink && signedIn.user?.id == user.id)
    }

    /// An account email's link stays the account's even where sign-in links are allowed.
    @Test func anAccountLinkIsUsedAsTheAccountsWhereverItIsPosted() async throws {
        let fixture = try await Fixture()
        _ = try await fixture.accounts.signUp("ada@example.com")
        let token = try await fixture.accounts.lastToken("ada@example.com")
        let verified = try await fixture.links.verify(token, kinds: [.signup], signInLinks: true, codeVerifier: nil)
        #expect(!verified.isSignInLink && verified.kind == .signup && verified.session != nil)
        #expect(verified.user?.email == "ada@example.com")
    }
}

/// Which form posts may press a link's button: the API's own pages, and clients that are no
/// browser; never another site's page.
struct BrowserPostTests {
    @Test func onlyTheAPIsOwnPagesOrNoBrowserMayPost() {
        let api = BrowserPost.origin(of: "https://auth.example.com/base")
        #expect(api == "https://auth.example.com")
        #expect(BrowserPost.origin(of: "http://127.0.0.1:3000") == "http://127.0.0.1:3000")
        #expect(BrowserPost.isAllowed(origin: api, fetchSite: "same-origin", expected: api))
        #expect(BrowserPost.isAllowed(origin: "null", fetchSite: "same-origin", expected: api))
        #expect(BrowserPost.isAllowed(origin: nil, fetchSite: nil, expected: api), "curl, an app's client")
        #expect(!BrowserPost.isAllowed(origin: "https://evil.example", fetchSite: "cross-site", expected: api))
        #expect(!BrowserPost.isAllowed(origin: "https://auth.example.com.evil.example", fetchSite: nil, expected: api))
        #expect(!BrowserPost.isAllowed(origin: "null", fetchSite: "cross-site", expected: api))
        #expect(!BrowserPost.isAllowed(origin: nil, fetchSite: "cross-site", expected: api))
    }
}
