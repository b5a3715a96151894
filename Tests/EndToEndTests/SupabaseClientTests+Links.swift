import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// `/otp` and `/magiclink` links that return to the request's `redirect_to`, through start-api
/// and the real binaries, driven by Supabase's own Python client
/// (`Tests/Support/Supabase/supabase_links.py`).
extension SupabaseClientTests {
    @Test func magicLinksReturnToRedirectToInThePKCEAndTheImplicitFlow() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let base = "http://127.0.0.1:\(api.port)"
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    "GATEHOUSE_STORE=\(cli.storeFile)", "SIGNING_KEYS_FILE=\(cli.keysFile)", PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/supabase_links.py").path,
                    base, try await apiKey(), GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path,
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record("the client run failed: \(run.standardError)")
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            #expect(seen["pkceLink"] == ["path": "/auth/v1/verify", "type": "magiclink"])
            #expect(
                seen["pkceRedirect"] == [
                    "status": 303, "to": .string(base + "/welcome"), "hasCode": true, "tokenInURL": false,
                ])
            #expect(seen["pkceSession"] == "ada@example.com")
            #expect(
                seen["usedAgain"]
                    == "error=access_denied&error_code=otp_expired&error_description=Email%20link%20is%20invalid%20or%20has%20expired"
            )
            #expect(
                seen["implicitRedirect"] == [
                    "status": 303, "to": .string(base + "/welcome/implicit"), "type": "magiclink",
                    "hasRefreshToken": true,
                ])
            #expect(seen["implicitUser"] == "bob@example.com")
            #expect(seen["foreignRedirect"] == ["code": "validation_failed", "status": 400])
            #expect(seen["foreignMailed"] == 0)
            #expect(seen["magiclinkAnswers"] == [[200, "{}"], [200, "{}"]])
            #expect(seen["magiclinkSession"] == ["email": "carol@example.com", "metadata": ["plan": "pro"]])
            // No address, a phone instead, no apikey: refused.
            #expect(seen["magiclinkStatuses"] == [400, 400, 401])
            #expect(seen["otpWrongCode"] == ["code": "otp_expired", "status": 403])
            #expect(seen["otpByCode"] == ["email": "dora@example.com", "hasSession": true, "amr": ["otp"]])
            #expect(seen["otpCodeAgain"] == ["code": "otp_expired", "status": 403])
            #expect(
                seen["otpLinkAfterCode"]
                    == "error=access_denied&error_code=otp_expired&error_description=Email%20link%20is%20invalid%20or%20has%20expired"
            )
            #expect(seen["pageButtons"]?.arrayValue?.allSatisfy { $0 == "Sign in" } == true)
            #expect(!api.log.contains("eyJ") && !api.log.contains("code=") && !api.log.contains("Or enter"))
        }
    }
}
