import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import Store
import Testing

/// Supabase's `grant_type=id_token` for the OIDC provider: ID tokens made here with an RSA key
/// of the test's own, served to the JWKS cache from memory, checked as the OAuth callback
/// checks the provider's tokens, and their users found or created by the callback's rules.
struct OIDCSignInTests {
    static let provider = try! RSASigningKey.generate()
    static let stranger = try! RSASigningKey.generate()
    static let issuer = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_TEST"
    static let clientID = "gatehouse-client"
    static let nonce = "n-0S6_WzA2Mj"

    struct Fixture {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let signIn: OIDCSignIn

        init() async throws {
            store = try SessionFixtures.store(clock: clock)
            try await AppRegistry(store: store).ensureDemoApp()
            let verifier = ProviderTokenVerifier(
                issuer: OIDCSignInTests.issuer, audiences: [OIDCSignInTests.clientID],
                keys: JWKSCache(
                    url: "https://provider.example/jwks", fetcher: ServedJWKS([OIDCSignInTests.provider.publicJWK])),
                clock: clock)
            let sessions = try SessionFixtures.sessions(store: store, clock: clock)
            signIn = OIDCSignIn(provider: "google", idTokens: verifier, sessions: sessions)
        }

        /// An ID token as the provider makes them, with `changes` applied (`.null` removes a claim).
        func token(_ changes: [String: JSONValue] = [:], key: RSASigningKey = OIDCSignInTests.provider) throws -> String
        {
            var claims: [String: JSONValue] = [
                "iss": .string(OIDCSignInTests.issuer), "aud": .string(OIDCSignInTests.clientID),
                "sub": "google-123", "iat": .number(clock.now), "exp": .number(clock.now + 600),
                "email": "grace@example.com", "email_verified": true, "name": "Grace Hopper", "token_use": "id",
                "nonce": .string(SHA256Hex.of(Array(OIDCSignInTests.nonce.utf8))),
            ]
            for (name, value) in changes {
                if value == .null { claims.removeValue(forKey: name) } else { claims[name] = value }
            }
            return try JWS.signJWT(claims: claims, with: key)
        }
    }

    /// A new subject is a new user with the provider's identity; the same subject later (a new
    /// token) is the same user, as the OAuth callback would find it.
    @Test func aValidTokenSignsInANewUserThenTheSameUserAgain() async throws {
        let fixture = try await Fixture()
        let (first, session) = try await fixture.signIn.signedIn(
            idToken: try fixture.token(), nonce: Self.nonce, app: "demo")
        #expect(session.user.isNewUser && session.user.provider == "google")
        #expect(first.email == "grace@example.com" && first.name == "Grace Hopper")
        #expect(first.providers["google"] == "google-123")
        fixture.clock.set(SessionFixtures.start + 1)
        let callbackUser = try await UserDirectory(store: fixture.store, clock: fixture.clock).findOrCreate(
            provider: "google", subject: "google-123", verifiedEmail: nil)
        #expect(callbackUser.user.id == first.id && !callbackUser.isNew)
        let (again, _) = try await fixture.signIn.signedIn(idToken: try fixture.token(), nonce: Self.nonce, app: "demo")
        #expect(again.id == first.id)
    }

    /// A verified address joins its account; an unverified one never does (a new user, the
    /// address not indexed for it).
    @Test func aVerifiedAddressLinksToItsAccountAndAnUnverifiedOneDoesNot() async throws {
        let fixture = try await Fixture()
        let users = UserDirectory(store: fixture.store, clock: fixture.clock)
        let (owner, _) = try await users.findOrCreate(email: EmailAddress("grace@example.com")!)
        let (stranger, _) = try await fixture.signIn.signedIn(
            idToken: try fixture.token(["sub": "google-999", "email_verified": "false"]), nonce: Self.nonce,
            app: "demo")
        #expect(stranger.id != owner.id)
        #expect(try await users.user(.email(EmailAddress("grace@example.com")!))?.id == owner.id)
        let (linked, _) = try await fixture.signIn.signedIn(
            idToken: try fixture.token(["email_verified": "true"]), nonce: Self.nonce, app: "demo")
        #expect(linked.id == owner.id && linked.providers["google"] == "google-123")
    }

    /// supabase/auth's nonce rule: both the request and the token carry it (the token its hex
    /// SHA-256), or neither does. Refused tokens are not spent.
    @Test func theNonceIsComparedAsSupabaseComparesIt() async throws {
        let fixture = try await Fixture()
        let token = try fixture.token()
        await #expect(throws: SignInError.tokenRefused("nonce_mismatch")) {
            try await fixture.signIn.signedIn(idToken: token, nonce: "another", app: "demo")
        }
        await #expect(throws: SignInError.tokenRefused("missing_nonce")) {
            try await fixture.signIn.signedIn(idToken: token, nonce: nil, app: "demo")
        }
        await #expect(throws: SignInError.tokenRefused("nonce_mismatch")) {
            try await fixture.signIn.signedIn(
                idToken: try fixture.token(["nonce": .null]), nonce: Self.nonce, app: "demo")
        }
        #expect(try await fixture.store.scan("Users", limit: nil).isEmpty)
        let (user, _) = try await fixture.signIn.signedIn(
            idToken: try fixture.token(["nonce": .null]), nonce: nil, app: "demo")
        #expect(user.email == "grace@example.com")
        let (again, _) = try await fixture.signIn.signedIn(idToken: token, nonce: Self.nonce, app: "demo")
        #expect(again.id == user.id)
    }

    /// A token starts one session: a second use (a logged or stolen token) is refused.
    @Test func aTokenSignsInOnce() async throws {
        let fixture = try await Fixture()
        let token = try fixture.token()
        _ = try await fixture.signIn.signedIn(idToken: token, nonce: Self.nonce, app: "demo")
        await #expect(throws: SignInError.tokenRefused("token_used")) {
            try await fixture.signIn.signedIn(idToken: token, nonce: Self.nonce, app: "demo")
        }
    }

    @Test(
        arguments: [
            (["aud": "another-client"], "wrong_audience"),
            (["iss": "https://evil.example"], "wrong_issuer"),
            (["exp": .number(SessionFixtures.start - 120)], "expired"),
            (["token_use": "access"], "wrong_token_use"),
            (["sub": .null], "missing_subject"),
        ] as [([String: JSONValue], String)])
    func badTokensAreRefusedWithTheirReasonAndChangeNothing(
        changes: [String: JSONValue], reason: String
    )
        async throws
    {
        let fixture = try await Fixture()
        await #expect(throws: SignInError.tokenRefused(reason)) {
            try await fixture.signIn.signedIn(idToken: try fixture.token(changes), nonce: Self.nonce, app: "demo")
        }
        #expect(try await fixture.store.scan("Users", limit: nil).isEmpty)
        #expect(try await fixture.store.scan("UsedAssertions", limit: nil).isEmpty)
    }

    /// A token signed by a key the provider does not publish, or for an unknown app.
    @Test func foreignKeysAndUnknownAppsAreRefused() async throws {
        let fixture = try await Fixture()
        await #expect(throws: SignInError.self) {
            try await fixture.signIn.signedIn(
                idToken: try fixture.token(key: OIDCSignInTests.stranger), nonce: Self.nonce, app: "demo")
        }
        await #expect(throws: SignInError.unknownApp) {
            try await fixture.signIn.signedIn(idToken: try fixture.token(), nonce: Self.nonce, app: "nobody")
        }
        #expect(try await fixture.store.scan("Users", limit: nil).isEmpty)
    }
}
