import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

extension SupabaseClientTests {
    /// A TOTP factor through start-api, driven by Supabase's own Python client (`auth.mfa`:
    /// `enroll`, `challenge`, `verify`, `challenge_and_verify`, `unenroll`, `list_factors`,
    /// `get_authenticator_assurance_level`) with codes from `pyotp`
    /// (`Tests/Support/Supabase/supabase_mfa.py`), and what the store keeps.
    @Test func aTOTPFactorEnrolsVerifiesRaisesTheSessionAndUnenrols() async throws {
        try await LocalAPI.with(cli: cli) { api in
            guard let seen = try await client("supabase_mfa.py", api: api) else { return }
            let failed: JSONValue = ["code": "mfa_verification_failed", "status": 422]
            #expect(seen["before"] == ["aal1", "aal1"])
            #expect(
                seen["enrolled"] == [
                    "type": "totp", "name": "phone app", "uri": true, "sameSecret": true, "qr": true,
                ])
            #expect(seen["webauthnFactor"] == ["code": "mfa_webauthn_enroll_not_enabled", "status": 422])
            #expect(seen["phoneFactor"] == ["code": "mfa_phone_enroll_not_enabled", "status": 422])
            #expect(seen["listedUnverified"] == ["all": ["unverified"], "totp": 0])
            #expect(seen["challenge"] == ["fiveMinutes": true])
            #expect(seen["wrongCode"] == failed)
            // Another session's verify of this session's challenge, and that session once the
            // factor was verified (ended).
            #expect(
                seen["otherSession"] == [
                    422, "mfa_factor_not_found", ["code": "session_not_found", "status": 403],
                ])
            #expect(
                seen["verified"] == [
                    "level": ["aal2", "aal2"], "amr": ["totp", "otp"], "newTokens": true, "sameSession": true,
                    "userFactors": ["verified"],
                ])
            #expect(seen["replay"] == failed)
            #expect(seen["listedVerified"] == ["all": ["verified"], "totp": 1])
            #expect(seen["refreshed"] == ["aal": "aal2"])
            #expect(seen["newSignIn"] == ["aal1", "aal2"])
            #expect(seen["unenrollFromAAL1"] == ["code": "insufficient_aal", "status": 422])
            #expect(seen["passwordFromAAL1"] == ["code": "insufficient_aal", "status": 401])
            #expect(seen["numberFromAAL1"] == ["code": "insufficient_aal", "status": 401])
            #expect(seen["unenrolled"] == true)
            #expect(seen["listedAfter"] == ["all": [], "totp": 0])
            #expect(seen["unknownFactor"] == ["code": "mfa_factor_not_found", "status": 404])

            // The store: the factor left unverified expires, and its secret is sealed (base64url of
            // a 12-byte nonce, the 20-byte secret enciphered and a 16-byte tag), never base32.
            let stored = try await cli.run(["db", "scan", "Factors"]).stdoutText.split(separator: "\n")
                .map { try JSONValue(parsing: Array($0.utf8)) }
            let factors = stored.filter { $0["entry"]?.stringValue?.hasPrefix("factor:") == true }
            #expect(factors.count == 1)
            #expect(factors.first?["status"] == "unverified" && factors.first?["ttl"] != nil)
            #expect(factors.first?["secret"]?.stringValue?.count == 64)
            // Unenrolled, the factor left no session it raised at aal2, nor its `amr` entry.
            let sessions = try await cli.run(["db", "scan", "Sessions"]).stdoutText
            #expect(!sessions.contains("aal2") && !sessions.contains("totp"))
        }
    }
}
