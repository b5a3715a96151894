import AuthKit
import GatehouseJSON
import Store
import StoreCore
import Testing

@testable import SupabaseImport

/// Supabase's `auth.mfa_factors` in an export's `factors` column: verified TOTP factors come
/// with their users, sealed as enrolments seal them, and verify; every other factor is reported.
struct SupabaseImportFactorTests {
    static let userID = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
    static let factorID = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
    static let secret: [UInt8] = Array(0..<20)

    static func row(factors: [JSONValue]) -> JSONValue {
        [
            "id": .string(userID), "email": "grace@example.com", "email_confirmed_at": "2024-05-01 12:00:00+00",
            "created_at": "2024-05-01 12:00:00+00", "factors": .array(factors),
        ]
    }

    static func factor(_ id: String, type: String = "totp", status: String = "verified", secret: String) -> JSONValue {
        [
            "id": .string(id), "factor_type": .string(type), "status": .string(status), "secret": .string(secret),
            "friendly_name": "Authy", "created_at": "2024-05-02 12:00:00+00",
        ]
    }

    @Test func aVerifiedTOTPFactorComesOverAndRaisesItsUsersSession() async throws {
        let fixture = try await FactorsFixture()
        let export = try SupabaseExport(
            bytes: Array(
                JSONValue.array([
                    Self.row(factors: [
                        Self.factor(Self.factorID, secret: Base32.encode(Self.secret)),
                        Self.factor("1a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", type: "phone", secret: ""),
                        Self.factor(
                            "2a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", secret: #"{"key_id":"k","alg":"aes-gcm-hkdf"}"#),
                    ])
                ]).serialized.utf8))
        let report = try await SupabaseUserImport(
            store: fixture.store, clock: fixture.clock, otpSecret: try OTPSecret(bytes: Array(repeating: 7, count: 32))
        ).run(export)
        #expect(report.imported == 1 && report.factorsImported == 1)
        #expect(report.factorsLeftOut == ["a phone factor": 1, SupabaseFactorList.encrypted: 1])
        #expect(
            report.lines.contains(
                "factors: 1 TOTP imported, 2 left out (1 \(SupabaseFactorList.encrypted); 1 a phone factor)"))

        let user = try #require(try await fixture.sessions.users.user(id: Self.userID))
        let factor = try await fixture.factors.factor(Self.factorID, userID: Self.userID)
        #expect(factor.verified && factor.lastStep == 0 && factor.friendlyName == "Authy")
        let (_, bearer) = try await fixture.signIn(user)
        fixture.clock.set(SessionFixtures.start + 40)
        let challenge = try await fixture.factors.challenge(Self.factorID, bearer: bearer)
        let raised = try await fixture.factors.verify(
            Self.factorID, challengeID: challenge.id, code: fixture.code(Self.secret), user: user, bearer: bearer,
            sourceIP: nil)
        #expect(try fixture.claims(raised.accessToken)["aal"] == "aal2")
    }

    /// Without the OTP secret no TOTP secret can be sealed: the user comes, its factor is reported.
    @Test func withoutAnOTPSecretTheFactorIsReportedNotDropped() async throws {
        let fixture = try await FactorsFixture()
        let export = try SupabaseExport(
            bytes: Array(
                JSONValue.array([Self.row(factors: [Self.factor(Self.factorID, secret: Base32.encode(Self.secret))])])
                    .serialized.utf8))
        let report = try await SupabaseUserImport(store: fixture.store, clock: fixture.clock).run(export)
        #expect(report.imported == 1 && report.factorsImported == 0)
        #expect(report.factorsLeftOut == ["a TOTP factor (no OTP secret to seal its secret under)": 1])
        #expect(try await fixture.factors.list(userID: Self.userID).isEmpty)
    }

    @Test func eachFactorLeftOutSaysWhy() {
        let list = SupabaseFactorList([
            Self.factor("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", status: "unverified", secret: "JBSWY3DPEHPK3PXP"),
            Self.factor("1a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", type: "webauthn", secret: ""),
            Self.factor("2a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", secret: "JBSWY3DP"),
            Self.factor("not a uuid", secret: "JBSWY3DPEHPK3PXP"),
            Self.factor("3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", secret: "jbswy3dpehpk3pxp"),
        ])
        #expect(list.totp.map(\.id) == ["3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"])
        #expect(
            list.leftOut == [
                "an unverified TOTP factor", "a webauthn factor",
                "a TOTP factor whose secret is not base32 of at least 80 bits",
                "a TOTP factor without a UUID id and created_at",
            ])
    }
}
