import Crypto
import Foundation
import GatehouseJSON
import Testing

/// The hosted sign-in page through start-api: what it shows, and its email form's post with
/// the cross-site checks.
@Suite(.serialized)
struct HostedPageTests {
    let cli = GatehouseCLI()

    @Test func thePageOffersEachMethodAndItsFormSendsALinkOnlyFromItself() async throws {
        let provider = try await TestOIDCProvider.start()
        defer { Task { await provider.stop() } }
        try await LocalAPI.with(cli: cli, variables: ["Authorize": provider.environment]) { api in
            let page = try await api.request("GET", "/auth?app=demo")
            #expect(page.status == 200)
            // The page's codes are bound to no PKCE challenge: one given is refused, not ignored.
            let bound = try await api.request(
                "GET", "/auth?app=demo&code_challenge=\(String(repeating: "a", count: 43))")
            #expect(bound.status == 400 && String(decoding: bound.body, as: UTF8.self).contains("code_challenge"))
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains("<title>Sign in to Demo app</title>"))
            #expect(html.contains(#"href="auth?app=demo&amp;provider=apple&amp;platform=web">Continue with Apple</a>"#))
            #expect(
                html.contains(#"href="auth?app=demo&amp;provider=google&amp;platform=web">Continue with Google</a>"#))
            #expect(html.contains(#"<label for="email">Email</label>"#))
            // The email field is where the browser offers passkeys too (conditional mediation);
            // the passkey's button waits, hidden, for its script.
            #expect(html.contains(#"autocomplete="username webauthn""#))
            #expect(html.contains(#"<div id="passkey" hidden>"#) && html.contains(#"action="auth/passkey""#))
            #expect(html.components(separatedBy: "<script").count == 2)
            for (name, value) in [
                ("cache-control", "no-store"), ("referrer-policy", "no-referrer"), ("x-frame-options", "DENY"),
            ] {
                #expect(page.headers.contains { $0 == (name, value) }, "\(name)")
            }
            // The one inline stylesheet and the one script run by their hashes; nothing else may.
            // The script may ask the API's own origin; the passkey's form ends at the app.
            let style = try #require(html.split(separator: "<style>").last?.split(separator: "</style>").first)
            let hash = Data(SHA256.hash(data: Array(style.utf8))).base64EncodedString()
            let script = try #require(html.split(separator: "<script>").last?.split(separator: "</script>").first)
            let scriptHash = Data(SHA256.hash(data: Array(script.utf8))).base64EncodedString()
            #expect(
                page.headers.first { $0.0 == "content-security-policy" }?.1
                    == "default-src 'none'; style-src 'sha256-\(hash)'; script-src 'sha256-\(scriptHash)'; "
                    + "connect-src 'self'; form-action 'self' http://127.0.0.1:\(api.port); "
                    + "frame-ancestors 'none'; base-uri 'none'")
            let setCookie = try #require(page.headers.first { $0.0 == "set-cookie" }?.1)
            #expect(
                setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict")
                    && setCookie.contains("Path=/auth"))
            let cookieToken = String(setCookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1])
            let formToken = try #require(
                html.split(separator: "\n").first { $0.contains(#"name="csrf""#) }?
                    .split(separator: "value=\"").last?.split(separator: "\"").first)
            #expect(String(formToken) == cookieToken)

            let origin = "http://127.0.0.1:\(api.port)"
            func post(
                email: String, token: String, cookie: String?, origin: String?, fetchSite: String? = nil
            ) async throws -> Int {
                var headers = [("Content-Type", "application/x-www-form-urlencoded")]
                if let cookie { headers.append(("Cookie", "gh_csrf=\(cookie)")) }
                if let origin { headers.append(("Origin", origin)) }
                if let fetchSite { headers.append(("Sec-Fetch-Site", fetchSite)) }
                let body =
                    "email=\(email.replacingOccurrences(of: "@", with: "%40"))&app=demo&platform=web&csrf=\(token)"
                return try await api.request("POST", "/auth", headers: headers, body: Array(body.utf8)).status
            }
            // From another site, with no token cookie, or with another token: 403, nothing sent.
            #expect(
                try await post(
                    email: "evil@example.com", token: cookieToken, cookie: cookieToken, origin: "https://evil.example")
                    == 403)
            #expect(
                try await post(email: "evil@example.com", token: cookieToken, cookie: cookieToken, origin: nil) == 403)
            #expect(try await post(email: "evil@example.com", token: cookieToken, cookie: nil, origin: origin) == 403)
            #expect(
                try await post(
                    email: "evil@example.com", token: String(repeating: "x", count: 43), cookie: cookieToken,
                    origin: origin) == 403)
            // The origin withheld (`null`, as a browser sends it under no-referrer): only Fetch
            // Metadata's same-origin vouches for it.
            for fetchSite in [nil, "cross-site", "same-site", "none"] {
                #expect(
                    try await post(
                        email: "evil@example.com", token: cookieToken, cookie: cookieToken, origin: "null",
                        fetchSite: fetchSite) == 403, "\(fetchSite ?? "no Sec-Fetch-Site")")
            }
            #expect(try await cli.run(["outbox", "--json"]).stdoutText.isEmpty)
            // As Chromium posts the page's own form: Origin null, Sec-Fetch-Site same-origin.
            #expect(
                try await post(
                    email: "chromium@example.com", token: cookieToken, cookie: cookieToken, origin: "null",
                    fetchSite: "same-origin") == 200)
            // From the page itself: the link goes out.
            #expect(
                try await post(email: "page@example.com", token: cookieToken, cookie: cookieToken, origin: origin)
                    == 200)
            #expect(
                try await cli.run(["outbox", "--json", "--to", "page@example.com"]).stdoutText.contains(
                    "email-callback?token="))

            #expect(try await api.request("GET", "/auth?app=nope").status == 400)
        }
    }
}
