import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

extension SupabaseClientTests {
    /// Recovery codes through start-api (`Tests/Support/Supabase/supabase_mfa_recovery.py`):
    /// shown at the first enrolment only, kept as digests, unusable before the factor is verified,
    /// each raising an `aal1` session to `aal2` once, mailed about, regenerated from `aal2`, and
    /// gone with the last factor.
    @Test func recoveryCodesRaiseASessionOnceAndAreMailedAbout() async throws {
        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            try await confirmedAccounts(["rosa@example.com"], api: api, key: key)
            guard
                let seen = try await client(
                    "supabase_mfa_recovery.py", api: api, key: key,
                    extra: ["rosa@example.com", "correct horse battery"])
            else { return }
            let failed: JSONValue = [422, "mfa_verification_failed"]
            #expect(
                seen["issued"] == ["status": 200, "count": 10, "distinct": 10, "shape": true, "clientReads": true])
            #expect(seen["atRest"] == ["items": 10, "plain": false])
            #expect(seen["beforeVerify"] == failed)
            #expect(seen["laterEnrolment"] == [200, false])
            #expect(seen["signedIn"] == ["aal1", "aal2"])
            #expect(seen["wrong"] == failed)
            #expect(
                seen["used"] == [
                    "status": 200, "remaining": 9, "aal": "aal2", "amr": ["recovery_code", "password"],
                    "sameSession": true, "userFactors": ["unverified", "unverified", "verified"],
                ])
            #expect(seen["raised"] == ["aal2", "aal2"])
            #expect(seen["replay"] == failed)
            #expect(seen["notice"] == ["count": 1, "left": true, "noCode": true])
            #expect(seen["regenerateFromAAL1"] == [403, "insufficient_aal"])
            #expect(seen["regenerated"] == ["status": 200, "count": 10, "old": failed, "new": 200])
            #expect(seen["afterLastFactor"] == failed)
            #expect(seen["leftInStore"] == 0)
        }
    }
}
