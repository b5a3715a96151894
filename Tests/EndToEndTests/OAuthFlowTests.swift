import Foundation
import GatehouseJSON
import Testing

/// OAuth with PKCE through start-api, as a browser with a cookie jar goes through it, against a
/// test OIDC provider.
@Suite(.serialized)
struct OAuthFlowTests {
    let cli = GatehouseCLI()

    struct Started {
        let location: URLComponents
        let cookies: [String: String]
        let setCookies: [String]
        var state: String { location.queryItems?.first { $0.name == "state" }?.value ?? "" }
        func query(_ name: String) -> String? { location.queryItems?.first { $0.name == name }?.value }
        var cookieHeader: String { cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
    }

    func start(_ api: LocalAPI, _ query: String = "app=demo&provider=google") async throws -> Started {
        let answer = try await api.request("GET", "/auth?\(query)")
        #expect(answer.status == 302)
        let location = try #require(answer.headers.first { $0.0 == "location" }.flatMap { URLComponents(string: $0.1) })
        let setCookies = answer.headers.filter { $0.0 == "set-cookie" }.map(\.1)
        var cookies: [String: String] = [:]
        // A browser drops the cookies a flow clears (Max-Age=0).
        for cookie in setCookies where !cookie.contains("Max-Age=0") {
            let pair = cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            cookies[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
        }
        return Started(location: location, cookies: cookies, setCookies: setCookies)
    }

    func callback(
        _ api: LocalAPI, _ query: String, cookie: String?
    ) async throws -> (status: Int, location: String?, setCookies: [String]) {
        let answer = try await api.request(
            "GET", "/auth/callback?\(query)", headers: cookie.map { [("Cookie", $0)] } ?? [])
        return (
            answer.status, answer.headers.first { $0.0 == "location" }?.1,
            answer.headers.filter { $0.0 == "set-cookie" }.map(\.1)
        )
    }

    @Test func signInThroughTheProviderAndTheRefusals() async throws {
        let provider = try await TestOIDCProvider.start()
        defer { Task { await provider.stop() } }
        let variables = ["Authorize": provider.environment, "OAuthCallback": provider.environment]
        try await LocalAPI.with(cli: cli, variables: variables) { api in
            let flow = try await start(api)
            #expect(flow.location.string?.hasPrefix(provider.url("/oauth2/authorize")) == true)
            #expect(flow.query("response_type") == "code")
            #expect(flow.query("client_id") == TestOIDCProvider.clientID)
            #expect(flow.query("redirect_uri") == "http://127.0.0.1:\(api.port)/auth/callback")
            #expect(flow.query("scope") == "openid email profile")
            #expect(flow.query("code_challenge_method") == "S256")
            #expect(flow.query("identity_provider") == "Google")
            // Five set; the app's challenge, the return address and the implicit flow's mark, which
            // this flow has not, cleared.
            #expect(flow.setCookies.count == 8)
            #expect(flow.setCookies.filter { $0.contains("Max-Age=0") }.count == 3)
            #expect(
                flow.setCookies.filter { !$0.contains("Max-Age=0") }.allSatisfy {
                    $0.contains("; HttpOnly;") && $0.contains("SameSite=Lax") && $0.contains("Max-Age=300")
                        && $0.hasSuffix("Path=/auth") && !$0.contains("Secure")  // plain http on 127.0.0.1
                })
            let challenge = try #require(flow.query("code_challenge"))
            let redirect = try #require(flow.query("redirect_uri"))
            let claims: [String: JSONValue] = [
                "sub": "google-123", "email": "grace@example.com", "email_verified": true, "name": "Grace Hopper",
            ]

            provider.issue("code-1", challenge: challenge, redirectURI: redirect, claims: claims)
            let done = try await callback(api, "code=code-1&state=\(flow.state)", cookie: flow.cookieHeader)
            #expect(done.status == 302)
            let location = try #require(done.location)
            #expect(location.hasPrefix("http://127.0.0.1:\(api.port)/app/auth/callback?code="))
            // All eight of the flow's cookies end, the app's challenge cookie included.
            #expect(done.setCookies.count == 8 && done.setCookies.allSatisfy { $0.contains("Max-Age=0") })
            let code = String(location.split(separator: "code=").last!)
            let exchanged = try await api.request(
                "POST", "/auth/exchange", headers: [("Content-Type", "application/json")],
                body: Array(#"{"code":"\#(code)","app":"demo"}"#.utf8))
            #expect(exchanged.status == 200)
            let user = try JSONValue(parsing: exchanged.body)["user"]
            #expect(user?["email"] == "grace@example.com")
            #expect(user?["provider"] == "google")

            // A reused provider code: the provider refuses it, the app hears oauth_failed.
            let second = try await start(api)
            let reused = try await callback(api, "code=code-1&state=\(second.state)", cookie: second.cookieHeader)
            #expect(reused.location == "http://127.0.0.1:\(api.port)/app/auth/callback?error=oauth_failed")

            // A wrong verifier in the cookie: the provider's PKCE check fails.
            let third = try await start(api)
            provider.issue(
                "code-3", challenge: try #require(third.query("code_challenge")), redirectURI: redirect, claims: claims)
            var tampered = third.cookies
            tampered["gh_oauth_verifier"] = String(repeating: "A", count: 43)
            let wrongVerifier = try await callback(
                api, "code=code-3&state=\(third.state)",
                cookie: tampered.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
            #expect(wrongVerifier.location == "http://127.0.0.1:\(api.port)/app/auth/callback?error=oauth_failed")

            // A wrong state, or no cookies at all: a 400 page, nothing else.
            let fourth = try await start(api)
            #expect(try await callback(api, "code=x&state=not-the-state", cookie: fourth.cookieHeader).status == 400)
            #expect(try await callback(api, "code=x&state=\(fourth.state)", cookie: nil).status == 400)
            // The provider's own error.
            let denied = try await callback(
                api, "error=access_denied&state=\(fourth.state)", cookie: fourth.cookieHeader)
            #expect(denied.location == "http://127.0.0.1:\(api.port)/app/auth/callback?error=oauth_failed")

            // An unknown app or provider never reaches the provider.
            #expect(try await api.request("GET", "/auth?app=nope&provider=google").status == 400)
            #expect(try await api.request("GET", "/auth?app=demo&provider=myspace").status == 400)
        }
    }
}
