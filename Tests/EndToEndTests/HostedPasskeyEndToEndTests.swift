import Foundation
import GatehouseJSON
import JOSE
import Testing
import WebAuthnTesting

/// The hosted page's passkey through start-api, posted as the page's script posts it, with a
/// software authenticator on the API's origin: the options, the form's checks (origin, token),
/// the redirect to the app with a code whose session starts at `aal2`, one refusal page whatever
/// the reason (no user verification here), and a code whose passkey was removed since.
@Suite(.serialized)
struct HostedPasskeyEndToEndTests {
    let cli = GatehouseCLI()

    /// The hosted page's anti-forgery token (its form's and its cookie's, the same).
    static func pageToken(_ api: LocalAPI) async throws -> String {
        let page = try await api.request("GET", "/auth?app=demo")
        #expect(page.status == 200)
        let setCookie = try #require(page.headers.first { $0.0 == "set-cookie" }?.1)
        return String(setCookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1)[1])
    }

    /// `POST /auth/passkey/options` for the demo app: the challenge's id and the options.
    static func options(_ api: LocalAPI) async throws -> (id: JSONValue, options: JSONValue) {
        let begun = try await api.request(
            "POST", "/auth/passkey/options",
            headers: [("Content-Type", "application/json"), ("Origin", "http://127.0.0.1:\(api.port)")],
            body: Array(#"{"app":"demo"}"#.utf8))
        #expect(begun.status == 200)
        let json = try JSONValue(parsing: begun.body)
        return (try #require(json["challenge_id"]), try #require(json["options"]))
    }

    /// The page's passkey form posted with `authenticator`'s assertion for `userID`.
    static func post(
        _ authenticator: SoftwareAuthenticator, userID: String, api: LocalAPI, token: String,
        origin: String? = nil
    ) async throws -> (status: Int, location: String?, text: String) {
        let (id, options) = try await Self.options(api)
        let credential = try authenticator.assertionJSON(options: options, userHandle: Array(userID.utf8))
        let fields = [
            ("app", "demo"), ("platform", "web"), ("csrf", token), ("challenge_id", id.stringValue ?? ""),
            ("credential", credential.serialized),
        ]
        let body = fields.map { "\($0.0)=\(Self.escaped($0.1))" }.joined(separator: "&")
        let answer = try await api.request(
            "POST", "/auth/passkey",
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", "gh_csrf=\(token)"),
                ("Origin", origin ?? "http://127.0.0.1:\(api.port)"),
            ],
            body: Array(body.utf8))
        return (
            answer.status, answer.headers.first { $0.0 == "location" }?.1, String(decoding: answer.body, as: UTF8.self)
        )
    }

    static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    /// `POST /auth/exchange` of `code` for the demo app: the status and the access token.
    static func exchange(_ code: String, api: LocalAPI) async throws -> (status: Int, accessToken: String?) {
        let answer = try await api.request(
            "POST", "/auth/exchange", headers: [("Content-Type", "application/json")],
            body: Array(#"{"code":"\#(code)","app":"demo"}"#.utf8))
        return (answer.status, try? JSONValue(parsing: answer.body)["accessToken"]?.stringValue)
    }

    @Test func thePagesFormSignsInAtAAL2AndRefusesWhatFailsACheck() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await SupabaseClientTests.apiKey(cli)
            let token = try #require(try await api.signIn("ada@example.com", cli: cli).accessToken)
            let userID = try #require(try AccessTokenHookEndToEndTests.claims(token)["sub"]?.stringValue)
            var browser = SoftwareAuthenticator()
            browser.origin = "http://127.0.0.1:\(api.port)"  // the hosted page's origin
            let registered = try await PasskeyEndToEndTests.register(browser, api: api, key: key, token: token)
            #expect(registered.status == 200)
            let passkeyID = try #require(registered.json?["id"]?.stringValue)
            let pageToken = try await Self.pageToken(api)

            // The options route takes JSON only, from the page's own origin: another site's form
            // or script cannot ask (and spend the visitor's allowance).
            let form = try await api.request(
                "POST", "/auth/passkey/options",
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "http://127.0.0.1:\(api.port)"),
                ], body: Array("app=demo".utf8))
            #expect(form.status == 400)
            for origin in [("Origin", "https://evil.example"), ("Sec-Fetch-Site", "cross-site")] {
                let script = try await api.request(
                    "POST", "/auth/passkey/options", headers: [("Content-Type", "application/json"), origin],
                    body: Array(#"{"app":"demo"}"#.utf8))
                #expect(script.status == 403, "\(origin)")
            }

            // From the page: a 303 to the app with a code whose session starts at aal2.
            let signedIn = try await Self.post(browser, userID: userID, api: api, token: pageToken)
            let callback = "http://127.0.0.1:\(api.port)/app/auth/callback?code="
            #expect(signedIn.status == 303 && signedIn.location?.hasPrefix(callback) == true, "\(signedIn.text)")
            let code = String(try #require(signedIn.location?.dropFirst(callback.count)))
            let exchanged = try await Self.exchange(code, api: api)
            let access = try #require(exchanged.accessToken)
            let claims = try AccessTokenHookEndToEndTests.claims(access)
            #expect(claims["aal"] == "aal2" && claims["sub"] == .string(userID))
            #expect(claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue } == ["webauthn", "passkey"])

            // Without user verification: the page that says so, the same for every refusal; no code.
            var unverified = browser
            unverified.verifiesUser = false
            let refused = try await Self.post(unverified, userID: userID, api: api, token: pageToken)
            #expect(refused.status == 400 && refused.location == nil)
            #expect(refused.text.contains("That passkey did not sign you in.") && refused.text.contains("Try again"))
            // From another site, or with another token: 403, the assertion not even checked.
            let forged = try await Self.post(
                browser, userID: userID, api: api, token: pageToken, origin: "https://evil.example")
            #expect(forged.status == 403 && forged.location == nil)

            // A code whose passkey is removed before it is exchanged starts no session.
            let late = try await Self.post(browser, userID: userID, api: api, token: pageToken)
            let lateCode = String(try #require(late.location?.dropFirst(callback.count)))
            let removed = try await PasskeyEndToEndTests.call(
                api, "DELETE", "/auth/v1/passkeys/\(passkeyID)", key: key, token: access)
            #expect(removed.status == 204)
            #expect(try await Self.exchange(lateCode, api: api).status == 401)
            #expect(!api.log.contains(code) && !api.log.contains(lateCode))
            #expect(!api.log.contains(Base64URL.encode(browser.credentialID)))
        }
    }

    /// `POST /app/passkeys/options` with `origin` and `fetchSite`, no session: the status.
    static func demoOptions(_ api: LocalAPI, origin: String?, fetchSite: String? = nil) async throws -> Int {
        var headers = [("Content-Type", "application/json")]
        if let origin { headers.append(("Origin", origin)) }
        if let fetchSite { headers.append(("Sec-Fetch-Site", fetchSite)) }
        return try await api.request("POST", "/app/passkeys/options", headers: headers, body: Array("{}".utf8)).status
    }

    /// The demo app's "Add a passkey" routes pass a post on only from its own page, with a session.
    @Test func theDemoAppsPasskeyRoutesServeOnlyItsOwnSignedInPage() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let elsewhere = try await Self.demoOptions(api, origin: "https://evil.example")
            #expect(elsewhere == 403)
            #expect(try await Self.demoOptions(api, origin: nil) == 403)
            #expect(try await Self.demoOptions(api, origin: "null", fetchSite: "cross-site") == 403)
            // From its own page, but nobody signed in (no session cookie): nothing is asked.
            #expect(try await Self.demoOptions(api, origin: "http://127.0.0.1:\(api.port)") == 401)
            #expect(!api.log.contains("POST /auth/v1/passkeys/registration/options"))
        }
    }
}
