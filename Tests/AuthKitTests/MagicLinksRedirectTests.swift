import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// Magic links sent with a `redirect_to` (Supabase's `/otp` and `/magiclink`): the link is
/// Supabase's verify link, its button returns to the address, with a `FlowCodes` code in the
/// PKCE flow and the user (for a session) without it; a foreign address is refused before
/// anything is counted, written or sent.
struct MagicLinksRedirectTests {
    static let verifier = String(repeating: "v", count: 50)

    func send(
        _ fixture: MagicLinksTests.Fixture, _ email: String, redirectTo: String?, challenge: String? = nil
    ) async throws -> String {
        try await fixture.links.send(
            email: email, app: "demo", platform: nil, sourceIP: "192.0.2.1", codeChallenge: challenge,
            redirectTo: redirectTo)
        let link = try #require(try await fixture.outbox(email).last?["secret"]?.stringValue)
        let query = try #require(URLComponents(string: link)?.queryItems)
        #expect(link.hasPrefix("http://127.0.0.1:3000/auth/v1/verify?"))
        #expect(query.first { $0.name == "type" }?.value == "magiclink")
        #expect(query.first { $0.name == "redirect_to" }?.value == redirectTo)
        return try #require(query.first { $0.name == "token" }?.value)
    }

    @Test func aPKCELinkReturnsToItsAddressWithACodeForTheChallengeOnly() async throws {
        let fixture = try await MagicLinksTests.Fixture()
        let token = try await send(
            fixture, "ada@example.com", redirectTo: "http://127.0.0.1:3000/welcome",
            challenge: PKCE.challenge(for: Self.verifier))
        #expect(
            try await fixture.links.redirect(for: token, requested: nil) == "http://127.0.0.1:3000/welcome")
        await #expect(throws: AccountError.redirectNotAllowed) {
            try await fixture.links.redirect(for: token, requested: "https://evil.example/")
        }
        let (user, app, code) = try await fixture.links.follow(token: token)
        #expect(user.email == "ada@example.com" && app == "demo")
        let flowCode = try #require(code)
        let flows = FlowCodes(store: fixture.store, clock: fixture.clock)
        await #expect(throws: FlowError.badVerifier) {
            try await flows.redeem(
                code: flowCode, verifier: String(repeating: "w", count: 50), app: "demo", sourceIP: nil)
        }
        // The link is used: a second press finds it spent.
        await #expect(throws: AccountError.linkExpired) { try await fixture.links.follow(token: token) }
    }

    @Test func aLinkWithoutAChallengeGivesItsUserForTheImplicitFlow() async throws {
        let fixture = try await MagicLinksTests.Fixture()
        let token = try await send(fixture, "bob@example.com", redirectTo: "http://127.0.0.1:3000/welcome")
        let (user, app, code) = try await fixture.links.follow(token: token)
        #expect(user.email == "bob@example.com" && app == "demo" && code == nil)
        fixture.clock.set(SessionFixtures.start + MagicLinks.defaultLifetime + 1)
        let late = try await send(fixture, "bob@example.com", redirectTo: "http://127.0.0.1:3000/welcome")
        fixture.clock.set(SessionFixtures.start + 2 * MagicLinks.defaultLifetime + 2)
        await #expect(throws: AccountError.linkExpired) { try await fixture.links.follow(token: late) }
    }

    @Test(arguments: ["https://evil.example/welcome", "http://127.0.0.1:3000.evil.example/", "javascript:alert(1)"])
    func aForeignRedirectIsRefusedBeforeAnythingHappens(redirect: String) async throws {
        let fixture = try await MagicLinksTests.Fixture()
        await #expect(throws: AccountError.redirectNotAllowed) {
            try await fixture.links.send(
                email: "eve@example.com", app: "demo", platform: nil, sourceIP: "192.0.2.1", redirectTo: redirect)
        }
        #expect(try await fixture.outbox("eve@example.com").isEmpty)
        #expect(try await fixture.store.scan(MagicLinks.table, limit: nil).isEmpty)
        #expect(try await fixture.store.scan(RateLimiter.table, limit: nil).isEmpty)
    }

    /// Without a `redirect_to`, a link is the email callback's, as before.
    @Test func withoutARedirectTheLinkIsTheEmailCallbacks() async throws {
        let fixture = try await MagicLinksTests.Fixture()
        try await fixture.links.send(email: "ada@example.com", app: "demo", platform: nil, sourceIP: "192.0.2.1")
        let link = try #require(try await fixture.outbox("ada@example.com").last?["secret"]?.stringValue)
        #expect(link.hasPrefix("http://127.0.0.1:3000/auth/email-callback?token="))
    }

    /// Supabase's `data`: the metadata (and the name) of a user the click creates; an existing
    /// user's is left alone. More than 16 KB is refused before anything is sent.
    @Test func dataBecomesTheMetadataOfANewUserOnly() async throws {
        let fixture = try await MagicLinksTests.Fixture()
        let data: [String: JSONValue] = ["full_name": "Ada Lovelace", "plan": "pro"]
        try await fixture.links.send(
            email: "ada@example.com", app: "demo", platform: nil, sourceIP: "192.0.2.1", metadata: data)
        guard case .signedIn = try await fixture.links.complete(token: try await fixture.lastToken("ada@example.com"))
        else {
            Issue.record("the click should sign in")
            return
        }
        let users = UserDirectory(store: fixture.store, clock: fixture.clock)
        let ada = try #require(try await users.user(email: EmailAddress("ada@example.com")!))
        #expect(ada.metadata == data && ada.name == "Ada Lovelace")
        fixture.clock.set(SessionFixtures.start + 1)
        try await fixture.links.send(
            email: "ada@example.com", app: "demo", platform: nil, sourceIP: "192.0.2.1", metadata: ["plan": "free"])
        _ = try await fixture.links.complete(token: try await fixture.lastToken("ada@example.com"))
        #expect(try await users.user(id: ada.id)?.metadata == data)
        let big: [String: JSONValue] = ["blob": .string(String(repeating: "x", count: 17 * 1024))]
        await #expect(throws: SignInError.self) {
            try await fixture.links.send(
                email: "eve@example.com", app: "demo", platform: nil, sourceIP: "192.0.2.1", metadata: big)
        }
        #expect(try await fixture.outbox("eve@example.com").isEmpty)
    }
}
