import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// `linkIdentity` through the provider's pages (`IdentityLinkFlow`), through start-api and the
/// real binaries, driven by Supabase's own Python client (`Tests/Support/Supabase/supabase_link.py`)
/// against `TestOIDCProvider`.
extension SupabaseClientTests {
    @Test func aUserLinksGoogleThroughItsPagesAndOnlyTheClientThatAskedCanFinish() async throws {
        let provider = try await TestOIDCProvider.start()
        defer { Task { await provider.stop() } }
        provider.signInAs(["sub": "google-link-1", "email": "linked@example.com", "email_verified": true])
        let variables = [
            "SupabaseToken": provider.environment, "Authorize": provider.environment,
            "OAuthCallback": provider.environment,
        ]
        try await LocalAPI.with(cli: cli, variables: variables) { api in
            let base = "http://127.0.0.1:\(api.port)"
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    "GATEHOUSE_STORE=\(cli.storeFile)", "SIGNING_KEYS_FILE=\(cli.keysFile)", PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/supabase_link.py").path,
                    base, try await apiKey(), GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path,
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record("the client run failed: \(run.standardError)")
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            #expect(
                seen["csrf"] == [
                    "exchange": ["code": "bad_code_verifier", "status": 400], "attackerIdentities": ["phone"],
                ])
            #expect(
                seen["linked"] == [
                    "url": "/auth/v1/authorize", "statuses": [302, 302, 302], "to": .string("\(base)/welcome"),
                    "sameUser": true, "identities": ["google", "phone"], "amr": ["oauth"], "handleAgain": 400,
                ])
            #expect(seen["signInAfter"] == true)
            #expect(
                seen["taken"] == [
                    "exchange": ["code": "identity_already_exists", "status": 422], "identities": ["phone"],
                ])
            #expect(
                seen["refused"] == [
                    "implicit": ["code": "validation_failed", "status": 400],
                    "foreignRedirect": ["code": "validation_failed", "status": 400],
                    "unknownProvider": ["code": "validation_failed", "status": 400], "noSession": 401,
                    "unknownLink": 400,
                ])
            // The store: Google's subject is indexed to the user that linked it, and to no other.
            let index = try await cli.run(["db", "scan", "UserIndex"]).stdoutText
            #expect(index.split(separator: "\n").filter { $0.contains("provider#google#google-link-1") }.count == 1)
        }
    }
}
