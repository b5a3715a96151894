import AuthKit
import GatehouseJSON
import Store
import StoreCore
import Testing

@testable import SupabaseImport

/// `gatehouse users export`'s rows: the shape `users import` reads, so that export, import into
/// an empty store and export again give the same lines; secrets only when asked for.
struct SupabaseUserExportTests {
    static let secretA = try! OTPSecret(bytes: Array(repeating: 7, count: 32))
    static let secretB = try! OTPSecret(bytes: Array(repeating: 9, count: 32))
    static let scrypt = try! PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1)).hash("a password")
        .description
    static let bcrypt = "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"

    /// A store with users of every kind an export meets.
    static func populated() async throws -> SQLiteStore {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        let directory = UserDirectory(store: store, clock: clock)
        var ada = User(
            id: "0b5e9d43-8f4c-4c0f-9b1e-2a4d6c8e0f11", email: "ada@example.com", phone: "+14155550100",
            name: "Ada L", providers: ["email": "ada@example.com", "phone": "+14155550100", "apple": "001.a"],
            createdAt: 1_714_564_800_123, updatedAt: 1_717_200_000_000, emailConfirmedAt: 1_714_564_900_000,
            lastSignInAt: 1_718_000_000_456, metadata: ["note": "a, \"quoted\"", "nested": ["x": [1, 2]]])
        ada.appMetadata = ["role": "admin"]
        ada.phoneConfirmedAt = 1_714_600_800_000
        let factor = Factors.Imported(
            id: "5d6c7b8a-1234-4c0f-9b1e-2a4d6c8e0f11", friendlyName: "phone app", createdAt: 1_714_564_800_000,
            updatedAt: 1_714_564_801_000, secret: Array(0..<20))
        _ = try await directory.importUser(
            ada,
            identities: [
                .email(EmailAddress("ada@example.com")!), .phone(PhoneNumber("+14155550100")!),
                .provider("apple", subject: "001.a"),
            ], passwordHash: scrypt, alsoWriting: [try Factors.importWrite(factor, userID: ada.id, secret: secretA)])
        // Two subjects at one provider, a user whose name is not in its metadata, and one
        // without any password or address but its provider's.
        let grace = User(
            id: "1c6f0e54-9a5d-4d10-8c2f-3b5e7d9f1022", email: "grace@example.com", name: "Grace H",
            providers: ["google": "g-1", "google#2": "g-2"], createdAt: 1_714_564_800_000, updatedAt: 1_714_564_800_000)
        _ = try await directory.importUser(
            grace,
            identities: [
                .email(EmailAddress("grace@example.com")!), .provider("google", subject: "g-1"),
                .provider("google", subject: "g-2"),
            ], passwordHash: bcrypt)
        let linus = User(
            id: "2d7a1f65-ab6e-4e21-9d3a-4c6f8e0a2133", providers: ["github": "42"], createdAt: 1_700_000_000_000,
            updatedAt: 1_700_000_000_000)
        _ = try await directory.importUser(linus, identities: [.provider("github", subject: "42")], passwordHash: nil)
        // Left out: an anonymous user.
        let anonymous = User.anonymous(metadata: [:], at: 1_714_564_800_000, lifetime: 1e9)
        try await store.put("Users", item: anonymous.item, condition: nil)
        return store
    }

    static func export(
        _ store: any KeyValueStore, secrets: Bool, otp: OTPSecret
    ) async throws -> (
        [String], SupabaseUserExport.Report
    ) {
        var lines: [String] = []
        let report = try await SupabaseUserExport(store: store, includeSecrets: secrets, otpSecret: otp).run {
            lines.append($0)
        }
        return (lines, report)
    }

    @Test(arguments: [false, true]) func exportImportExportGivesTheSameLines(secrets: Bool) async throws {
        let store = try await Self.populated()
        let (lines, report) = try await Self.export(store, secrets: secrets, otp: Self.secretA)
        #expect(lines.count == 3 && report.rows == 3)
        #expect(report.leftOut["anonymous users"] == 1)
        let clock = TestClock(SessionFixtures.start)
        let empty = try SessionFixtures.store(clock: clock)
        let bytes = Array(lines.joined(separator: "\n").utf8)
        let imported = try await SupabaseUserImport(store: empty, clock: clock, otpSecret: Self.secretB)
            .run(try SupabaseExport(bytes: bytes))
        #expect(imported.imported == 3 && imported.skipped.isEmpty, "\(imported.lines)")
        let (again, _) = try await Self.export(empty, secrets: secrets, otp: Self.secretB)
        #expect(again == lines)
        // The users themselves came over as they were.
        let ada = try #require(
            try await UserDirectory(store: empty, clock: clock).user(id: "0b5e9d43-8f4c-4c0f-9b1e-2a4d6c8e0f11"))
        #expect(ada.providers == ["email": "ada@example.com", "phone": "+14155550100", "apple": "001.a"])
        #expect(ada.lastSignInAt == 1_718_000_000_456 && ada.phoneConfirmedAt == 1_714_600_800_000)
        let grace = try #require(
            try await UserDirectory(store: empty, clock: clock).user(id: "1c6f0e54-9a5d-4d10-8c2f-3b5e7d9f1022"))
        #expect(grace.name == "Grace H" && grace.providers == ["google": "g-1", "google#2": "g-2"])
        if secrets {
            #expect(report.withPassword == 2 && report.factors == 1)
            #expect(
                imported.lines.last
                    == "3 rows: 3 imported (1 with a bcrypt password, 1 with a Gatehouse scrypt password, "
                    + "0 awaiting email confirmation), 0 already present, 0 skipped")
            #expect(try await PasswordCredentials.hash(userID: ada.id, in: empty) == Self.scrypt)
            // The factor opens under the importing store's OTP secret, with the same secret.
            let factor = try #require(try await Factors.list(userID: ada.id, in: empty).first)
            #expect(try Factors.exported(factor, secret: Self.secretB)?.secret == Array(0..<20))
        }
    }

    @Test func withoutTheFlagNoLineHoldsASecret() async throws {
        let store = try await Self.populated()
        let (lines, report) = try await Self.export(store, secrets: false, otp: Self.secretA)
        let text = lines.joined(separator: "\n")
        #expect(!text.contains("encrypted_password") && !text.contains("$scrypt$") && !text.contains("$2a$"))
        #expect(!text.contains("factors") && !text.contains(Base32.encode(Array(0..<20))))
        #expect(report.leftOut["TOTP factors (their secrets need --include-password-hashes)"] == 1)
        let (secret, _) = try await Self.export(store, secrets: true, otp: Self.secretA)
        #expect(secret.joined().contains(Base32.encode(Array(0..<20))) && secret.joined().contains("$scrypt$"))
        // Without an OTP secret the hashes come, and the TOTP factor is counted left out.
        var hashesOnly: [String] = []
        let withoutSecret = try await SupabaseUserExport(store: store, includeSecrets: true, otpSecret: nil).run {
            hashesOnly.append($0)
        }
        #expect(hashesOnly.joined().contains("$scrypt$") && !hashesOnly.joined().contains("factors"))
        #expect(withoutSecret.leftOut["TOTP factors (no OTP secret to open their secrets)"] == 1)
    }

    @Test func aRowIsSupabasesShape() throws {
        var user = User(
            id: "0b5e9d43-8f4c-4c0f-9b1e-2a4d6c8e0f11", phone: "+14155550100", providers: ["phone": "+14155550100"],
            createdAt: 0, updatedAt: 1)
        user.phoneConfirmedAt = nil
        let row = SupabaseUserExport.row(of: user)
        #expect(row["phone"] == "14155550100", "Supabase keeps numbers without their +")
        #expect(row["phone_confirmed_at"] == "1970-01-01T00:00:00.000+00:00")
        #expect(row["updated_at"] == "1970-01-01T00:00:00.001+00:00" && row["email"] == .null)
        #expect(row["identities"] == [["provider": "phone", "provider_id": "0b5e9d43-8f4c-4c0f-9b1e-2a4d6c8e0f11"]])
        #expect(row["raw_app_meta_data"] == ["provider": "phone", "providers": ["phone"]])
        for milliseconds in [0.0, 1_714_564_800_789, 951_782_400_000, -86_400_000, 4_102_444_799_999] {
            #expect(PostgresTimestamp.milliseconds(PostgresTimestamp.text(milliseconds: milliseconds)) == milliseconds)
        }
    }

    @Test func aCognitoUserBecomesARowTheImportReads() throws {
        let cognito: JSONValue = [
            "Username": "ada", "Enabled": true, "UserStatus": "CONFIRMED", "UserCreateDate": 1_714_564_800.5,
            "UserLastModifiedDate": 1_714_564_900,
            "Attributes": [
                ["Name": "sub", "Value": "6F1C2A4E-8B3D-4C5E-9F70-1A2B3C4D5E6F"],
                ["Name": "email", "Value": "ada@example.com"],
                ["Name": "email_verified", "Value": "true"], ["Name": "phone_number", "Value": "+14155550100"],
                ["Name": "phone_number_verified", "Value": "false"], ["Name": "given_name", "Value": "Ada"],
                ["Name": "family_name", "Value": "Lovelace"],
            ],
        ]
        let row = CognitoUserRow.row(cognito, groups: ["admins", "staff"])
        let read = try SupabaseUserRow(row)
        #expect(read.user.id == "6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f" && read.user.email == "ada@example.com")
        #expect(read.user.emailConfirmedAt == 1_714_564_800_500 && read.user.createdAt == 1_714_564_800_500)
        #expect(read.user.phone == nil && read.leftOut == ["its unconfirmed phone"])
        #expect(read.user.name == "Ada Lovelace")
        #expect(read.user.metadata == ["given_name": "Ada", "family_name": "Lovelace", "full_name": "Ada Lovelace"])
        #expect(read.user.appMetadata == ["groups": ["admins", "staff"]])
        #expect(read.user.providers == ["email": "ada@example.com", "cognito": "6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f"])
        #expect(read.passwordHash == nil)
        // An address Cognito never verified, and nothing else: the sign-up waiting for its
        // confirmation it was, which a magic link confirms.
        let unverified = JSONValue.object(
            (cognito.objectValue ?? [:]).merging([
                "Attributes": [
                    ["Name": "sub", "Value": "6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f"],
                    ["Name": "email", "Value": "uma@example.com"], ["Name": "email_verified", "Value": "false"],
                ]
            ]) { $1 })
        let pending = try SupabaseUserRow(CognitoUserRow.row(unverified, groups: []))
        #expect(pending.user.email == "uma@example.com" && pending.user.emailIsPending && pending.leftOut.isEmpty)
        var disabled = cognito
        disabled = .object((cognito.objectValue ?? [:]).merging(["Enabled": false]) { $1 })
        // A user Cognito disabled comes over banned for good.
        let banned = try SupabaseUserRow(CognitoUserRow.row(disabled, groups: []))
        #expect(banned.user.bannedUntil == 253_402_300_799_000 && banned.user.isBanned(at: 1_800_000_000_000))
    }

    /// A ban comes over: the export writes `banned_until` as Supabase does, the import keeps it,
    /// and exporting again gives the same lines; the imported user is still banned.
    @Test func aBanSurvivesExportAndImport() async throws {
        let store = try await Self.populated()
        let clock = TestClock(SessionFixtures.start)
        let id = "0b5e9d43-8f4c-4c0f-9b1e-2a4d6c8e0f11"
        try await UserAdmin(store: store, clock: clock, actor: .terminal).ban(id: id, forSeconds: 3600)
        let (lines, _) = try await Self.export(store, secrets: false, otp: Self.secretA)
        let until = (SessionFixtures.start + 3600) * 1000
        let row = try #require(
            try lines.map { try JSONValue(parsing: Array($0.utf8)) }.first { $0["id"] == .string(id) })
        #expect(row["banned_until"] == .string(PostgresTimestamp.text(milliseconds: until)))
        #expect(lines.filter { $0.contains("banned_until") }.count == 1, "only the banned user has one")

        let empty = try SessionFixtures.store(clock: clock)
        let imported = try await SupabaseUserImport(store: empty, clock: clock, otpSecret: Self.secretB)
            .run(try SupabaseExport(bytes: Array(lines.joined(separator: "\n").utf8)))
        #expect(imported.imported == 3 && imported.skipped.isEmpty, "\(imported.lines)")
        let (again, _) = try await Self.export(empty, secrets: false, otp: Self.secretB)
        #expect(again == lines)
        let ada = try #require(try await UserDirectory(store: empty, clock: clock).user(id: id))
        #expect(ada.bannedUntil == until && ada.isBanned(at: clock.now * 1000))
    }
}
