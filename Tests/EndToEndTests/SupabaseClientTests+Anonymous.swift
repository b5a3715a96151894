import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// Anonymous users through start-api with the template's `AnonymousUsers` enabled, driven by
/// Supabase's own Python client (`Tests/Support/Supabase/supabase_anonymous.py`).
extension SupabaseClientTests {
    @Test func anAnonymousUserSignsInAndBecomesPermanentByAnAddress() async throws {
        try await LocalAPI.with(cli: cli, extra: ["--parameter-overrides", "AnonymousUsers=enabled"]) { api in
            let key = try await apiKey()
            let settings = try await api.request("GET", "/auth/v1/settings", headers: [("apikey", key)])
            #expect(try JSONValue(parsing: settings.body)["external"]?["anonymous_users"] == true)
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    "GATEHOUSE_STORE=\(cli.storeFile)", "SIGNING_KEYS_FILE=\(cli.keysFile)", PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/supabase_anonymous.py")
                        .path,
                    "http://127.0.0.1:\(api.port)", key,
                    GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path,
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record("the client run failed: \(run.standardError)")
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            #expect(
                seen["user"] == [
                    "isAnonymous": true, "email": "", "metadata": ["theme": "dark"], "appMetadata": [:],
                    "identities": 0,
                ])
            #expect(seen["token"] == ["isAnonymous": true, "role": "authenticated", "amr": ["anonymous"]])
            #expect(seen["passwordAlone"] == ["code": "validation_failed", "status": 422])
            #expect(seen["passwordWithAddress"] == ["code": "validation_failed", "status": 422])
            #expect(seen["addressAnswer"] == true)
            #expect(seen["passwordNow"] == ["code": "reauthentication_needed", "status": 400])
            #expect(
                seen["permanent"] == [
                    "sameId": true, "isAnonymous": false, "email": "anon@example.com", "metadata": ["theme": "dark"],
                ])
            #expect(seen["passwordSignIn"] == true)
            #expect(seen["permanentByPhone"] == ["sameId": true, "isAnonymous": false, "phone": "+14155590160"])
            // The store: the user is permanent, no expiry left on it.
            let users = try await cli.run(["db", "scan", "Users"]).stdoutText
            let row = users.split(separator: "\n").first { $0.contains("anon@example.com") } ?? ""
            #expect(!row.isEmpty && !row.contains("\"ttl\"") && !row.contains("\"anonymous\""), "\(row)")
        }
    }
}
