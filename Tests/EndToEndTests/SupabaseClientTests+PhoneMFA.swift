import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

extension SupabaseClientTests {
    /// A phone factor through start-api, driven by Supabase's own Python client (`auth.mfa`:
    /// `enroll` with `factor_type: "phone"`, `challenge`, `verify`, `list_factors`, `unenroll`,
    /// `get_authenticator_assurance_level`), each code read from the local outbox
    /// (`Tests/Support/Supabase/supabase_mfa_phone.py`), and what the store keeps.
    @Test func aPhoneFactorEnrolsTextsItsCodeRaisesTheSessionAndSharesTheSendLimits() async throws {
        // Phone factors are off unless the template's `PhoneFactors` says `enabled`.
        try await LocalAPI.with(cli: cli, extra: ["--parameter-overrides", "PhoneFactors=enabled"]) { api in
            guard let seen = try await client("supabase_mfa_phone.py", api: api) else { return }
            let invalid: JSONValue = ["code": "validation_failed", "status": 400]
            let limited: JSONValue = ["code": "over_request_rate_limit", "status": 429]
            #expect(
                seen["enrolled"] == [
                    "type": "phone", "name": "my phone", "phone": "+14155550181",
                    "replaced": ["code": "mfa_factor_not_found", "status": 404],
                ])
            #expect(seen["noNumber"] == invalid && seen["badNumber"] == invalid && seen["whatsapp"] == invalid)
            #expect(seen["challenge"] == ["type": "phone", "fiveMinutes": true])
            #expect(seen["wrongCode"] == ["code": "mfa_verification_failed", "status": 422])
            #expect(seen["otherSession"] == [422, "mfa_factor_not_found"])
            #expect(
                seen["verified"] == [
                    "level": ["aal2", "aal2"], "amr": ["mfa/phone", "otp"],
                    "userFactors": [["phone", "verified", "+14155550181"]],
                ])
            #expect(seen["replay"] == ["code": "mfa_factor_not_found", "status": 422])
            #expect(seen["sameNumberAgain"] == ["code": "mfa_verified_factor_exists", "status": 422])
            #expect(seen["listed"] == ["all": ["verified"], "phone": 1])
            #expect(seen["newSignIn"] == ["aal1", "aal2"] && seen["steppedUp"] == ["aal2", "aal2"])
            #expect(seen["fourthText"] == [limited, limited] && seen["texts"] == 3)
            #expect(seen["unenrolled"] == true)
            #expect(seen["after"] == ["level": ["aal1", "aal1"], "amr": ["otp"]])

            // The store: a challenge holds nothing of its code (which is made again from the OTP
            // secret to check it), and no session keeps the factor's `amr` entry.
            let stored = try await cli.run(["db", "scan", "Factors"]).stdoutText.split(separator: "\n")
                .map { try JSONValue(parsing: Array($0.utf8)) }
            let challenges = stored.filter { $0["entry"]?.stringValue?.hasPrefix("challenge:") == true }
            let allowed: Set = ["userId", "entry", "id", "factorId", "sessionId", "expiresAt", "ttl", "tries"]
            #expect(challenges.count == 1)
            #expect(challenges.allSatisfy { Set($0.objectValue?.keys.map { $0 } ?? []).isSubset(of: allowed) })
            let sessions = try await cli.run(["db", "scan", "Sessions"]).stdoutText
            #expect(!sessions.contains("mfa/phone") && !sessions.contains("aal2"))
        }
    }
}
