import AuthKit
import Store
import Testing

/// Deployed (an https issuer), the OAuth flow's and the hosted page's cookies are `__Host-`
/// cookies: `Secure`, `Path=/`, no `Domain`, so a sibling subdomain cannot plant or shadow them.
/// On loopback over plain HTTP, where no browser keeps a `Secure` cookie, they keep their plain
/// names on `/auth`. The flow reads back only the names it set.
struct FlowCookieTests {
    static func flow(issuer: String) async throws -> OAuthFlow {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        try await AppRegistry(store: store).ensureDemoApp()
        return OAuthFlow(settings: OAuthFlowRedirectTests.settings, issuer: issuer, store: store, clock: clock)
    }

    @Test func deployedCookiesAreHostCookies() async throws {
        let flow = try await Self.flow(issuer: "https://auth.example.com")
        let (_, cookies) = try await flow.begin(app: "demo", provider: "google", platform: nil, clientChallenge: nil)
        #expect(cookies.count == 8)
        for cookie in cookies + flow.clearedCookies {
            #expect(cookie.hasPrefix("__Host-gh_oauth_"), "\(cookie)")
            #expect(cookie.contains("; Secure;") && cookie.hasSuffix("; Path=/"), "\(cookie)")
            #expect(!cookie.lowercased().contains("domain="), "\(cookie)")
        }
        #expect(flow.cookieName("gh_oauth_state") == "__Host-gh_oauth_state")
    }

    /// The implicit flow's verifier, deployed: a `__Host-` cookie too, which only the API's own
    /// origin, over HTTPS, sets and reads.
    @Test func theImplicitFlowsVerifierIsAHostCookie() async throws {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        try await AppRegistry(store: store).ensureDemoApp()
        try await AppRegistry(store: store).pointDemoApp(at: "https://app.example.com")
        let flow = OAuthFlow(
            settings: OAuthFlowRedirectTests.settings, issuer: "https://auth.example.com", store: store, clock: clock)
        let (_, cookies) = try await flow.begin(
            app: "demo", provider: "google", redirectTo: "https://app.example.com/welcome", challenge: nil, method: nil)
        let verifier = try #require(cookies.first { $0.hasPrefix("__Host-gh_implicit_verifier=") })
        #expect(verifier.contains("; HttpOnly; Secure; SameSite=Lax; Max-Age=300; Path=/"), "\(verifier)")
        #expect(ImplicitReturn(issuer: "https://auth.example.com").cookieName == "__Host-gh_implicit_verifier")
    }

    @Test func loopbackCookiesKeepTheirNames() async throws {
        let flow = try await Self.flow(issuer: "http://127.0.0.1:3000")
        let (_, cookies) = try await flow.begin(app: "demo", provider: "google", platform: nil, clientChallenge: nil)
        for cookie in cookies {
            #expect(cookie.hasPrefix("gh_oauth_") && !cookie.contains("Secure") && cookie.hasSuffix("; Path=/auth"))
        }
        #expect(flow.cookieName("gh_oauth_state") == "gh_oauth_state")
    }
}
