import AuthKit
import GatehouseJSON
import JOSE
import Store
import Testing

/// The hosted page's OAuth flow (Google, Apple) for a user with a verified TOTP factor: the
/// callback begins the second step instead of minting the auth code, and the step's right code
/// gives a session at `aal2`; Supabase's own route returns at `aal1`, for its client to step up.
struct OAuthFlowSecondFactorTests {
    /// The provider's token endpoint: an ID token vouching for the fixture's user's address.
    struct TokenEndpoint: OAuthTokenEndpoint {
        let now: Double
        func post(_ url: String, form body: String, authorization: String?) async throws -> [UInt8] {
            let token = try JWS.signJWT(
                claims: [
                    "iss": "https://provider.example", "aud": "gatehouse", "sub": "google-ada", "iat": .number(now),
                    "exp": .number(now + 300), "email": "ada@example.com", "email_verified": true,
                ], with: OAuthFlowRedirectTests.key)
            return Array(#"{"id_token":"\#(token)"}"#.utf8)
        }
    }

    /// The provider's callback of a flow begun with `cookies`.
    static func complete(
        _ flow: OAuthFlow, _ cookies: [String], _ fixture: FactorsFixture, second: SecondFactorSignIn
    ) async throws -> OAuthFlow.Completion {
        let jar = OAuthFlowRedirectTests.Fixture.jar(cookies)
        let idTokens = ProviderTokenVerifier(
            issuer: "https://provider.example", audiences: ["gatehouse"],
            keys: JWKSCache(
                url: "https://provider.example/jwks", fetcher: ServedJWKS([OAuthFlowRedirectTests.key.publicJWK])),
            clock: fixture.clock)
        return try await flow.complete(
            code: "provider-code", state: jar["gh_oauth_state"], providerError: nil, cookie: { jar[$0] },
            tokens: TokenEndpoint(now: fixture.clock.now), idTokens: idTokens, secondFactor: second)
    }

    @Test func theHostedFlowAsksForTheCodeAndItsRightCodeSignsInAtAAL2() async throws {
        let (fixture, finishing, _, secret) = try await SecondFactorSignInTests.verified()
        let flow = OAuthFlow(
            settings: OAuthFlowRedirectTests.settings, issuer: "http://127.0.0.1:3000", store: fixture.store,
            clock: fixture.clock)
        // The callback's second step has no secret: it begins steps, which EmailCallback finishes.
        let beginning = SecondFactorSignIn(
            store: fixture.store, clock: fixture.clock, secret: nil, issuer: "http://127.0.0.1:3000")
        let (_, cookies) = try await flow.begin(app: "demo", provider: "google", platform: nil, clientChallenge: nil)
        guard case .secondFactor(let step) = try await Self.complete(flow, cookies, fixture, second: beginning) else {
            Issue.record("no second step")
            return
        }
        #expect(try await fixture.store.scan(AuthCodes.table, limit: nil).isEmpty, "no auth code before the code")
        let cookie = try #require(step.cookie?.split(separator: ";").first?.split(separator: "=").last)
        guard
            case .signedIn(let redirect, _) = try await finishing.finish(
                handle: step.handle, code: fixture.code(secret), factorID: nil, cookie: String(cookie), sourceIP: nil)
        else {
            Issue.record("not signed in")
            return
        }
        let code = try #require(redirect.split(separator: "?code=").last)
        let session = try await fixture.sessions.exchange(code: String(code), app: "demo")
        let claims = try fixture.claims(session.accessToken)
        #expect(claims["aal"] == "aal2")
        #expect(claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue } == ["totp", "oauth"])
    }

    @Test func supabasesRouteReturnsAtAAL1ForItsClientToStepUp() async throws {
        let (fixture, _, _, _) = try await SecondFactorSignInTests.verified()
        let flow = OAuthFlow(
            settings: OAuthFlowRedirectTests.settings, issuer: "http://127.0.0.1:3000", store: fixture.store,
            clock: fixture.clock)
        let second = SecondFactorSignIn(
            store: fixture.store, clock: fixture.clock, secret: nil, issuer: "http://127.0.0.1:3000")
        let (_, cookies) = try await flow.begin(
            app: "demo", provider: "google", redirectTo: "http://127.0.0.1:3000/welcome",
            challenge: PKCE.challenge(for: OAuthFlowRedirectTests.verifier), method: "s256")
        guard case .signedIn(let redirect) = try await Self.complete(flow, cookies, fixture, second: second) else {
            Issue.record("Supabase's flow should return with its code")
            return
        }
        #expect(redirect.hasPrefix("http://127.0.0.1:3000/welcome?code="))
    }
}
