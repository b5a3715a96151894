import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// The hosted sign-in in a real browser: Debian's headless Chromium, driven by Selenium
/// (`Tests/Support/Browser/hosted_sign_in.py`; `.ci/run` installs both), against start-api with
/// the template as it is: the dev OIDC provider and the demo app's pages of the emulator.
@Suite(.serialized)
struct HostedSignInBrowserTests {
    let cli = GatehouseCLI()

    /// Where the run's screenshots go: under `.build`, out of git.
    static let screenshots = GatehouseCLI.repositoryRoot.appendingPathComponent(".build/screenshots").path

    @Test func aPersonSignsInWithTheDevProviderAndSeesThemselvesOnTheDemoApp() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent(
                        "Tests/Support/Browser/hosted_sign_in.py"
                    ).path,
                    "http://127.0.0.1:\(api.port)", Self.screenshots, "grace@example.com", "Grace Hopper",
                    "linked@example.com",
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record(
                    "the browser run failed (Chromium, chromedriver and selenium come from .ci/run): \(run.standardError)"
                )
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            let base = "http://127.0.0.1:\(api.port)"

            // The hosted page, as the browser rendered it.
            #expect(seen["signInTitle"] == "Sign in to Demo app")
            #expect(seen["signInLinks"] == ["Continue with Apple", "Continue with Google"])
            #expect(seen["emailLabel"] == "Email")
            #expect(seen["linkDisplay"] == "block")
            #expect(FileManager.default.fileExists(atPath: Self.screenshots + "/sign-in-page.png"))

            // "Continue with Google" went to the dev provider; signing in there came back to the
            // demo app, which exchanged the code and shows who signed in.
            #expect(seen["providerURL"] == .string(base + "/_dev/oidc/oauth2/authorize"))
            #expect(seen["appURL"] == .string(base + "/app/"))
            let text = seen["appText"]?.stringValue ?? ""
            #expect(text.contains("Signed in with a new account"))
            #expect(text.contains("Grace Hopper") && text.contains("grace@example.com") && text.contains("google"))
            #expect(seen["cookiesVisibleToScript"] == "")  // every cookie HttpOnly
            let log = api.log
            for line in [
                "GET /auth/callback 302", "GET /app/auth/callback 303", "POST /auth/exchange 200",
                "GET /users/me 200", "POST /auth/logout 200",
            ] {
                #expect(log.contains(line), "\(line)")
            }
            let users = try await cli.run(["db", "scan", "Users"]).stdoutText
            #expect(users.contains("grace@example.com"))

            // Signing out ended the session; the page's own email form sent a link.
            let signedOut = seen["afterSignOutText"]?.stringValue ?? ""
            #expect(signedOut.contains("You are signed out."))
            #expect(seen["emailFormTitle"] == "Check your email")
            let outbox = try await cli.run(["outbox", "--json", "--to", "linked@example.com"]).stdoutText
            #expect(outbox.contains("email-callback?token="))
        }
    }

    /// A link's button POSTs and the answer redirects to the app, on another origin than the
    /// API's: browsers check that redirect against the page's `form-action`, so the page must
    /// name the app (with `'self'` alone, Chromium stays on the page).
    @Test func aLinksButtonTakesTheBrowserToAnAppOnAnotherOrigin() async throws {
        try await LocalAPI.with(cli: cli) { api in
            // The same server under another host name: another origin for the browser.
            let app = "http://localhost:\(api.port)"
            #expect(
                try await cli.run(["apps", "add", "--id", "shop", "--name", "Shop", "--base-url", app]).status == 0)
            let sent = try await api.request(
                "POST", "/auth/send-magic-link", headers: [("Content-Type", "application/json")],
                body: Array(#"{"email":"grace@example.com","app":"shop"}"#.utf8))
            #expect(sent.status == 200)
            let outbox = try await cli.run(["outbox", "--json", "--to", "grace@example.com"]).stdoutText
            let last = try #require(outbox.split(separator: "\n").last)
            let link = try #require(try JSONValue(parsing: Array(last.utf8))["secret"]?.stringValue)
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Browser/link_button.py").path,
                    link, app + "/app/auth/callback?code=",
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record("the browser run failed: \(run.standardError)")
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            #expect(seen["page"] == "Sign in")
            #expect(seen["url"]?.stringValue?.hasPrefix(app + "/app/auth/callback?code=") == true, "\(seen)")
        }
    }
    /// A user with a verified TOTP factor (made through Supabase's client and `pyotp`) signs in
    /// through the hosted page's email link in Chromium: the link's button answers the code page;
    /// a wrong code and the code the factor was verified with are refused; the authenticator's
    /// next code lands on the demo app with an `aal2` session; that code is refused afterwards
    /// (`Tests/Support/Browser/hosted_mfa.py`).
    @Test func aUserWithAnAuthenticatorIsAskedForItsCodeAndLandsAtAAL2() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    "GATEHOUSE_STORE=\(cli.storeFile)", "SIGNING_KEYS_FILE=\(cli.keysFile)", PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Browser/hosted_mfa.py").path,
                    "http://127.0.0.1:\(api.port)", try await SupabaseClientTests.apiKey(cli),
                    GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path, Self.screenshots,
                    "mfa@example.com",
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record("the browser run failed: \(run.standardError)")
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            let codePage = "Enter your authenticator code"
            #expect(seen["codePage"] == .string(codePage) && seen["codeLabel"] == "Code")
            #expect(seen["autocomplete"] == "one-time-code" && seen["cookiesVisibleToScript"] == "")
            for (key, left) in [("wrong", "2 tries left"), ("replayed", "1 try left")] {
                #expect(seen[key]?["title"] == .string(codePage), "\(key)")
                #expect(seen[key]?["text"]?.stringValue?.contains("That code did not work. \(left).") == true, "\(key)")
            }
            let landed = seen["right"]?["text"]?.stringValue ?? ""
            #expect(seen["appURL"] == .string("http://127.0.0.1:\(api.port)/app/"))
            #expect(landed.contains("mfa@example.com") && landed.contains("Assurance level\naal2"), "\(landed)")
            #expect(seen["secondCodePage"] == .string(codePage))
            #expect(
                seen["replayedAfterSignIn"]?["text"]?.stringValue?.contains("That code did not work. 2 tries") == true)
            // The handle and cookie posted from another site (403), or without the cookie (400):
            // neither counted, so the next wrong code leaves 1 try, and the one after ends the step.
            #expect(seen["crossSite"] == 403 && seen["withoutCookie"] == 400)
            #expect(seen["afterForgeries"]?["text"]?.stringValue?.contains("1 try left.") == true)
            #expect(seen["lastTry"]?["title"] == "Sign in again")
            // Through Google (the dev provider) too, the callback asks for the code.
            #expect(seen["googleCodePage"] == .string(codePage))
            #expect(seen["googleURL"] == .string("http://127.0.0.1:\(api.port)/auth/callback"))
            let log = api.log
            for line in [
                "POST /auth/email-callback 200", "POST /auth/email-callback 422", "POST /auth/email-callback 302",
                "GET /app/auth/callback 303", "POST /auth/exchange 200", "GET /auth/callback 200",
            ] {
                #expect(log.contains(line), "\(line)")
            }
            // The first step was spent by its right code, the second ended at its third wrong
            // one: only Google's waits, untried.
            let steps = try await cli.run(["db", "scan", "Factors"]).stdoutText.split(separator: "\n")
                .filter { $0.contains("signin:") }.map { try JSONValue(parsing: Array($0.utf8)) }
            #expect(steps.count == 1 && steps.first?["provider"] == "google" && steps.first?["tries"] == 0)
        }
    }
}
