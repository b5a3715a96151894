import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import Store
import Testing

/// Supabase's `/auth/v1/authorize`: the OAuth flow begun for the client's challenge and a
/// `redirect_to`, ended by the provider's callback at that address with a `FlowCodes` code.
struct OAuthFlowRedirectTests {
    static let key = try! RSASigningKey.generate()
    static let settings = OAuthSettings(
        authorizeURL: "https://provider.example/authorize", tokenURL: "https://provider.example/token",
        jwksURL: "https://provider.example/jwks", issuer: "https://provider.example", clientID: "gatehouse")
    static let verifier = String(repeating: "v", count: 50)

    /// The provider's token endpoint: an ID token for grace, whatever the code.
    struct TokenEndpoint: OAuthTokenEndpoint {
        let now: Double
        func post(_ url: String, form body: String, authorization: String?) async throws -> [UInt8] {
            let token = try JWS.signJWT(
                claims: [
                    "iss": "https://provider.example", "aud": "gatehouse", "sub": "google-123", "iat": .number(now),
                    "exp": .number(now + 300), "email": "grace@example.com", "email_verified": true,
                ], with: OAuthFlowRedirectTests.key)
            return Array(#"{"id_token":"\#(token)"}"#.utf8)
        }
    }

    struct Fixture {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let flow: OAuthFlow
        let idTokens: ProviderTokenVerifier

        init() async throws {
            store = try SessionFixtures.store(clock: clock)
            try await AppRegistry(store: store).ensureDemoApp()
            flow = OAuthFlow(
                settings: OAuthFlowRedirectTests.settings, issuer: "http://127.0.0.1:3000", store: store, clock: clock)
            idTokens = ProviderTokenVerifier(
                issuer: "https://provider.example", audiences: ["gatehouse"],
                keys: JWKSCache(
                    url: "https://provider.example/jwks", fetcher: ServedJWKS([OAuthFlowRedirectTests.key.publicJWK])),
                clock: clock)
        }

        /// The cookies' values, as the browser sends them back.
        static func jar(_ cookies: [String]) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: cookies.map { cookie in
                    let pair = cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                    return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
                })
        }

        func complete(_ jar: [String: String]) async throws -> OAuthFlow.Completion {
            try await flow.complete(
                code: "provider-code", state: jar["gh_oauth_state"], providerError: nil, cookie: { jar[$0] },
                tokens: TokenEndpoint(now: clock.now), idTokens: idTokens)
        }
    }

    /// The provider's name comes back in a cookie the browser holds: one that is not a provider
    /// the flow begins with is refused, so no session is labelled with a method the client made
    /// up (it becomes the session's `amr`).
    @Test func aProviderCookieTheFlowNeverSetIsRefused() async throws {
        let fixture = try await Fixture()
        let (_, cookies) = try await fixture.flow.begin(
            app: "demo", provider: "google", redirectTo: "http://127.0.0.1:3000/welcome",
            challenge: PKCE.challenge(for: Self.verifier), method: "s256")
        var jar = Fixture.jar(cookies)
        jar["gh_oauth_provider"] = "totp"
        guard case .refused(let reason) = try await fixture.complete(jar) else {
            Issue.record("a made-up provider should be refused")
            return
        }
        #expect(reason == "unknown_provider")
        #expect(try await fixture.store.scan(RefreshTokens.sessionsTable, limit: nil).isEmpty)
    }

    @Test func theCallbackReturnsToRedirectToWithACodeForTheClientsChallenge() async throws {
        let fixture = try await Fixture()
        let (location, cookies) = try await fixture.flow.begin(
            app: "demo", provider: "google", redirectTo: "http://127.0.0.1:3000/welcome",
            challenge: PKCE.challenge(for: Self.verifier), method: "s256")
        #expect(location.hasPrefix("https://provider.example/authorize?"))
        let jar = Fixture.jar(cookies)
        #expect(jar.count == 8 && jar["gh_oauth_redirect"] != nil && jar["gh_oauth_implicit"] == "")
        guard case .signedIn(let redirect) = try await fixture.complete(jar) else {
            Issue.record("the callback should sign in")
            return
        }
        let query = try #require(URLComponents(string: redirect)?.queryItems)
        #expect(redirect.hasPrefix("http://127.0.0.1:3000/welcome?code="))
        let code = try #require(query.first { $0.name == "code" }?.value)
        let grant = try await FlowCodes(store: fixture.store, clock: fixture.clock).redeem(
            code: code, verifier: Self.verifier, app: "demo", sourceIP: nil)
        #expect(grant.provider == "google")
        let user = try await UserDirectory(store: fixture.store, clock: fixture.clock).user(id: grant.userID)
        #expect(user?.email == "grace@example.com" && user?.providers["google"] == "google-123")
    }

    /// The implicit flow (no challenge): the API's own verifier in a cookie of its own, and the
    /// callback's code sent to the API's return route, never to the app; that code is redeemed
    /// only with the cookie's verifier. Without the flow's mark the code goes to the app, bound to
    /// a challenge whose verifier only the API's cookie holds.
    @Test func theImplicitFlowReturnsThroughTheAPIWithACodeForItsOwnVerifier() async throws {
        let fixture = try await Fixture()
        let (_, cookies) = try await fixture.flow.begin(
            app: "demo", provider: "google", redirectTo: "http://127.0.0.1:3000/welcome", challenge: nil, method: nil)
        let jar = Fixture.jar(cookies)
        let verifier = try #require(jar["gh_implicit_verifier"])
        #expect(jar["gh_oauth_implicit"] == "1" && jar["gh_oauth_challenge"] == PKCE.challenge(for: verifier))
        guard case .signedIn(let redirect) = try await fixture.complete(jar) else {
            Issue.record("the callback should sign in")
            return
        }
        let url = try #require(URLComponents(string: redirect))
        #expect(redirect.hasPrefix("http://127.0.0.1:3000/auth/v1/implicit?"))
        let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["app"] == "demo" && query["redirect_to"] == "http://127.0.0.1:3000/welcome")
        let codes = FlowCodes(store: fixture.store, clock: fixture.clock)
        await #expect(throws: FlowError.badVerifier) {
            try await codes.redeem(code: query["code"] ?? "", verifier: Self.verifier, app: "demo", sourceIP: nil)
        }
        // Spent by the wrong verifier; a second flow's code redeems with its cookie's verifier.
        let (_, second) = try await fixture.flow.begin(
            app: "demo", provider: "google", redirectTo: "http://127.0.0.1:3000/welcome", challenge: nil, method: nil)
        let secondJar = Fixture.jar(second)
        guard case .signedIn(let again) = try await fixture.complete(secondJar) else {
            Issue.record("the callback should sign in")
            return
        }
        let code = try #require(URLComponents(string: again)?.queryItems?.first { $0.name == "code" }?.value)
        let grant = try await codes.redeem(
            code: code, verifier: try #require(secondJar["gh_implicit_verifier"]), app: "demo", sourceIP: nil)
        #expect(grant.provider == "google")
    }

    /// A foreign `redirect_to`, or no challenge (the implicit flow) for an app's own scheme,
    /// never reaches the provider.
    @Test(
        arguments: [
            ("https://evil.example/welcome", PKCE.challenge(for: verifier), "s256", "redirect_to"),
            ("gatehouse-demo://done", nil, nil, "code_challenge"),
            ("http://127.0.0.1:3000/welcome", "short", "s256", "code_challenge"),
            ("http://127.0.0.1:3000/welcome", PKCE.challenge(for: verifier), "md5", "code_challenge"),
        ] as [(String, String?, String?, String)])
    func badRequestsAreRefusedBeforeTheProvider(
        redirect: String, challenge: String?, method: String?, field: String
    ) async throws {
        let fixture = try await Fixture()
        do {
            _ = try await fixture.flow.begin(
                app: "demo", provider: "google", redirectTo: redirect, challenge: challenge, method: method)
            Issue.record("begun")
        } catch SignInError.invalidField(let name, _) {
            #expect(name == field)
        }
    }

    /// A redirect cookie changed on the way (another site's address), or a flow without the
    /// challenge cookie: nothing is signed in.
    @Test func aTamperedRedirectCookieSignsNothingIn() async throws {
        let fixture = try await Fixture()
        let (_, cookies) = try await fixture.flow.begin(
            app: "demo", provider: "google", redirectTo: nil, challenge: PKCE.challenge(for: Self.verifier),
            method: "s256")
        var jar = Fixture.jar(cookies)
        jar["gh_oauth_redirect"] = Base64URL.encode(Array("https://evil.example/".utf8))
        #expect(try await fixture.complete(jar) == .refused(reason: "redirect_not_allowed"))
        var noChallenge = Fixture.jar(cookies)
        noChallenge.removeValue(forKey: "gh_oauth_challenge")
        #expect(try await fixture.complete(noChallenge) == .refused(reason: "redirect_not_allowed"))
        #expect(try await fixture.store.scan("Users", limit: nil).isEmpty)
        #expect(try await fixture.store.scan(AuthCodes.table, limit: nil).isEmpty)
    }

    /// A flow begun after an unfinished one clears the challenge and return address it does
    /// not set, so the earlier flow's never carry over (a stale address would take this
    /// sign-in's code there, bound to another client's challenge).
    @Test func aFlowClearsTheCookiesItDoesNotSet() async throws {
        let fixture = try await Fixture()
        let (_, cookies) = try await fixture.flow.begin(
            app: "demo", provider: "google", platform: nil, clientChallenge: nil)
        #expect(cookies.contains { $0.hasPrefix("gh_oauth_redirect=;") && $0.contains("Max-Age=0") })
        #expect(cookies.contains { $0.hasPrefix("gh_oauth_challenge=;") && $0.contains("Max-Age=0") })
        #expect(cookies.filter { $0.contains("Max-Age=300") }.count == 5)
    }

    /// The provider refused (or the exchange failed): back to `redirect_to` with Supabase's
    /// error in the query, nothing signed in.
    @Test func aFailureReturnsToRedirectToWithTheError() async throws {
        let fixture = try await Fixture()
        let (_, cookies) = try await fixture.flow.begin(
            app: "demo", provider: "google", redirectTo: "http://127.0.0.1:3000/welcome#top",
            challenge: PKCE.challenge(for: Self.verifier), method: "s256")
        let jar = Fixture.jar(cookies)
        let completion = try await fixture.flow.complete(
            code: nil, state: jar["gh_oauth_state"], providerError: "access_denied", cookie: { jar[$0] },
            tokens: TokenEndpoint(now: fixture.clock.now), idTokens: fixture.idTokens)
        #expect(
            completion
                == .failed(
                    redirect: "http://127.0.0.1:3000/welcome?error=access_denied&error_code=oauth_failed"
                        + "&error_description=The%20sign-in%20at%20the%20provider%20did%20not%20succeed#top",
                    reason: "provider_error:access_denied"))
        #expect(try await fixture.store.scan("Users", limit: nil).isEmpty)
    }
}
