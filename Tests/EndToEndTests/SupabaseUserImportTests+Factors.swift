import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

extension SupabaseUserImportTests {
    static let importedID = "5b0c4e3a-1f2d-4c6b-9a8e-7d6c5b4a3f21"
    static let importedFactor = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
    /// The imported factor's secret, as Supabase keeps it (base32 of 20 bytes).
    static let importedSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

    /// One Supabase user, signing in by phone, with six factors in the export's `factors` column:
    /// one verified TOTP factor comes over; a phone, a WebAuthn and an unverified factor, one
    /// whose secret Supabase stored encrypted and one whose secret is not base32 do not.
    static func exportWithFactors() -> String {
        func factor(_ id: String, _ type: String, _ status: String, secret: String) -> JSONValue {
            [
                "id": .string(id), "factor_type": .string(type), "status": .string(status), "secret": .string(secret),
                "friendly_name": .string("\(type) \(id.prefix(4))"), "created_at": "2024-05-02T10:00:00.123456+00:00",
                "updated_at": "2024-05-03T10:00:00+00:00",
            ]
        }
        let encrypted = #"{"key_id":"k1","alg":"aes-gcm-hkdf","nonce":"bm9uY2U","data":"ZGF0YQ"}"#
        let user: JSONValue = [
            "id": .string(importedID), "phone": "14155550177", "phone_confirmed_at": "2024-05-01 12:00:00+00",
            "created_at": "2024-05-01 12:00:00+00",
            "identities": [["provider": "phone", "provider_id": .string(importedID)]],
            "factors": [
                factor(importedFactor, "totp", "verified", secret: importedSecret),
                factor("1e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b", "phone", "verified", secret: ""),
                factor("2e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b", "webauthn", "verified", secret: ""),
                factor("3e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b", "totp", "unverified", secret: importedSecret),
                factor("4e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b", "totp", "verified", secret: encrypted),
                factor("5e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b", "totp", "verified", secret: "not base32!"),
            ],
        ]
        return JSONValue.array([user]).serialized
    }

    /// `gatehouse users import` brings a Supabase user's verified TOTP factor, reports each
    /// other factor with its reason, and through start-api the user signs in with a texted code
    /// (aal1, aal2 next) and reaches aal2 with the authenticator app's code of the same secret
    /// (`Tests/Support/Supabase/imported_mfa.py`).
    @Test func anImportedTOTPFactorRaisesItsUsersSessionToAAL2() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("factors-\(UUID().uuidString).json")
        try Self.exportWithFactors().write(to: file, atomically: true, encoding: .utf8)
        let imported = try await cli.run(["users", "import", file.path])
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        let encrypted = "a TOTP factor whose secret Supabase stored encrypted (GOTRUE_SECURITY_DB_ENCRYPTION)"
        let notBase32 = "a TOTP factor whose secret is not base32 of at least 80 bits"
        let row: String =
            "row 1 (\(Self.importedID)): imported without a phone factor, a webauthn factor, "
            + "an unverified TOTP factor, \(encrypted), \(notBase32)"
        let counts: String =
            "factors: 1 TOTP imported, 5 left out (1 \(encrypted); 1 \(notBase32); 1 a phone factor; "
            + "1 a webauthn factor; 1 an unverified TOTP factor)"
        let total =
            "1 rows: 1 imported (0 with a bcrypt password, 0 awaiting email confirmation), 0 already present, 0 skipped"
        let lines = imported.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines == [row, counts, total])
        let stored = try await cli.run(["db", "scan", "Factors"]).stdoutText.split(separator: "\n")
            .map { try JSONValue(parsing: Array($0.utf8)) }
        #expect(stored.count == 1)
        #expect(stored.first?["id"] == .string(Self.importedFactor) && stored.first?["status"] == "verified")
        #expect(stored.first?["lastStep"] == 0 && stored.first?["ttl"] == nil)
        // Sealed as an enrolment seals it, never base32.
        #expect(stored.first?["secret"]?.stringValue?.count == 64)
        #expect(!"\(stored)".contains(Self.importedSecret))
        // Again: already present, nothing changes.
        let again = try await cli.run(["users", "import", file.path])
        #expect(
            again.stdoutText.hasSuffix(
                "0 imported (0 with a bcrypt password, 0 awaiting email confirmation), 1 already present, 0 skipped\n"))

        try await LocalAPI.with(cli: cli) { api in
            let run = try await ChildProcess.capture(
                "/usr/bin/env",
                [
                    "GATEHOUSE_STORE=\(cli.storeFile)", "SIGNING_KEYS_FILE=\(cli.keysFile)", PythonTools.python,
                    GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/imported_mfa.py").path,
                    "http://127.0.0.1:\(api.port)", try await apiKey(),
                    GatehouseCLI.binDirectory.appendingPathComponent("gatehouse").path, "+14155550177",
                    Self.importedFactor, Self.importedSecret,
                ])
            guard case .exited(0) = run.termination.reason else {
                Issue.record("the client run failed: \(run.standardError)")
                return
            }
            let seen = try JSONValue(parsing: Array(run.standardOutput.utf8))
            #expect(seen["signedIn"] == ["aal1", "aal2"])
            #expect(seen["factors"] == [[true, "totp 9e8d", "verified"]])
            #expect(seen["verified"] == ["aal2", "aal2"])
            #expect(seen["amr"] == ["totp", "otp"])
            #expect(seen["replay"] == ["code": "mfa_verification_failed", "status": 422])
        }
    }
}
