import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// Passkeys in a real browser: Debian's headless Chromium through Selenium with a WebDriver
/// virtual authenticator (CTAP2, internal transport, resident keys, user verification),
/// `Tests/Support/Browser/hosted_passkey.py`, against start-api on `localhost` (a secure context
/// whose host is the RP ID, `localhost`; the API's, the hosted page's and the demo app's origin).
@Suite(.serialized)
struct HostedPasskeyBrowserTests {
    let cli = GatehouseCLI()

    @Test func aPasskeyAddedAfterASignInSignsInOnTheHostedPageAtAAL2AndNotWithoutVerification() async throws {
        try await LocalAPI.with(cli: cli, extra: ["--host", "localhost"]) { api in
            let base = "http://localhost:\(api.port)"
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Browser/hosted_passkey.py").path,
                    base, HostedSignInBrowserTests.screenshots, "grace@example.com", "Grace Hopper",
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record(
                    "the browser run failed (Chromium, chromedriver and selenium come from .ci/run): \(run.standardError)"
                )
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))

            // The page's script ran (the policy allows it by its hash) and showed the button.
            #expect(seen["passkeyButtonShown"] == true && seen["autocomplete"] == "username webauthn")
            #expect(seen["conditionalMediation"] == true)
            // After a sign-in with Google, the demo app added a resident passkey.
            #expect(seen["firstText"]?.stringValue?.contains("Assurance level\naal1") == true, "\(seen)")
            #expect(seen["added"]?.stringValue?.hasPrefix("Passkey added") == true, "\(seen)")
            #expect(seen["credentials"] == 1 && seen["residentCredential"] == true)

            // The passkey alone signed in on the hosted page, at aal2: through the email field's
            // autofill, and with the button where the browser has no passkey autofill.
            for way in ["autofill", "passkey"] {
                let signedIn = seen[way]
                #expect(signedIn?["url"] == .string(base + "/app/"), "\(way): \(String(describing: signedIn))")
                let text = signedIn?["text"]?.stringValue ?? ""
                #expect(text.contains("grace@example.com") && text.contains("Assurance level\naal2"), "\(text)")
            }
            #expect(seen["passkey"]?["clicked"] == true)
            #expect(seen["cookiesVisibleToScript"] == "")

            // Without user verification: refused, on the hosted page, and no session.
            let refused = seen["unverified"]
            #expect(refused?["url"]?.stringValue?.hasPrefix(base + "/auth") == true, "\(String(describing: refused))")
            #expect(
                refused?["status"]?.stringValue?.contains("No passkey signed you in") == true
                    || refused?["text"]?.stringValue?.contains("That passkey did not sign you in") == true,
                "\(String(describing: refused))")
            let log = api.log
            for line in [
                "POST /app/passkeys/options 200", "POST /app/passkeys/verify 200", "POST /auth/passkey/options 200",
                "POST /auth/passkey 303",
            ] {
                #expect(log.contains(line), "\(line)")
            }
            // Three sessions in all: Google's and the passkey's two.
            #expect(log.components(separatedBy: "POST /auth/exchange 200").count - 1 == 3)
            #expect(log.components(separatedBy: "POST /auth/passkey 303").count - 1 == 2)
            let stored = try await cli.run(["db", "scan", "Passkeys"]).stdoutText
            #expect(stored.contains("lastUsedAt") && stored.contains("\"flagged\":false"))
        }
    }
}
