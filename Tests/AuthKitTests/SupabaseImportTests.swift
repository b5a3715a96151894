import AuthKit
import GatehouseJSON
import Store
import Testing

@testable import SupabaseImport

/// Supabase's export read into users (CSV, JSON, timestamps, rows), and imported on conditions:
/// the same ids, identities a later sign-in finds, bcrypt hashes that sign in once and are
/// then scrypt, nothing overwritten, nothing changed by a second run.
struct SupabaseImportTests {
    static let id = "0B5E9D43-8F4C-4C0F-9B1E-2A4D6C8E0F11"
    /// bcrypt of `U*U*U` (Openwall's vector), cheap enough for a test.
    static let hash = "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"

    static let csv = #"""
        id,email,phone,encrypted_password,email_confirmed_at,phone_confirmed_at,last_sign_in_at,created_at,updated_at,raw_app_meta_data,raw_user_meta_data,identities\#r
        \#(id),Ada@Example.COM,14155550100,\#(hash),2024-05-01 12:34:56.789012+00,2024-05-02 00:00:00+02,,2024-05-01 12:00:00+00,2024-06-01T00:00:00Z,"{""provider"": ""email"", ""providers"": [""email"", ""google""], ""role"": ""admin""}","{""full_name"": ""Ada L"", ""note"": ""a, \""quoted\""""}","[{""provider"": ""email"", ""provider_id"": ""\#(id)""}, {""provider"": ""google"", ""provider_id"": ""1234567890""}]"\#r

        """#

    @Test func csvKeepsNullApartFromEmptyAndQuotedCommasQuotesAndLineBreaks() throws {
        let table = try CSVTable(parsing: Array("a,b,c\n1,\"\",\n\"x,\"\"y\"\"\nz\",2,3\n,,\n".utf8))
        #expect(table.columns == ["a", "b", "c"])
        #expect(table.records.map(\.fields) == [["1", "", nil], ["x,\"y\"\nz", "2", "3"], [nil, nil, nil]])
        #expect(table.records.map(\.line) == [2, 3, 5])
        #expect(throws: CSVTable.Problem.self) { try CSVTable(parsing: Array("a\n\"open\n".utf8)) }
        #expect(throws: CSVTable.Problem.self) { try CSVTable(parsing: Array("a\nx\"y\n".utf8)) }
    }

    @Test func timestampsInPostgresTextAndJSONForm() {
        let noon = 1_714_564_800_000.0  // 2024-05-01T12:00:00Z
        #expect(PostgresTimestamp.milliseconds("2024-05-01 12:00:00+00") == noon)
        #expect(PostgresTimestamp.milliseconds("2024-05-01T12:00:00.789012+00:00") == noon + 789)
        #expect(PostgresTimestamp.milliseconds("2024-05-01T14:30:00+0230") == noon)
        #expect(PostgresTimestamp.milliseconds("2024-05-01T07:00:00-05") == noon)
        #expect(PostgresTimestamp.milliseconds("2024-05-01T12:00:00Z") == noon)
        #expect(PostgresTimestamp.milliseconds("1970-01-01 00:00:00+00") == 0)
        for bad in ["2024-05-01", "2024-13-01 00:00:00+00", "2024-05-01 12:00:00", "2024-05-01 12:00:00.+00", "soon"] {
            #expect(PostgresTimestamp.milliseconds(bad) == nil, "\(bad)")
        }
    }

    @Test func aCSVRowBecomesTheSameUserWithItsIdentities() throws {
        let export = try SupabaseExport(bytes: Array(Self.csv.utf8))
        let row = try SupabaseUserRow(try #require(export.rows.first).values)
        let user = row.user
        #expect(user.id == Self.id.lowercased())
        #expect(
            user.email == "Ada@example.com" && user.phone == "+14155550100", "the domain folded, the local part kept")
        #expect(user.createdAt == 1_714_564_800_000 && user.updatedAt == 1_717_200_000_000)
        #expect(user.emailConfirmedAt == 1_714_566_896_789 && user.phoneConfirmedAt == 1_714_600_800_000)
        #expect(user.lastSignInAt == nil && !user.emailIsPending)
        #expect(user.metadata == ["full_name": "Ada L", "note": "a, \"quoted\""] && user.name == "Ada L")
        #expect(user.appMetadata == ["role": "admin"])
        #expect(user.providers == ["email": "Ada@example.com", "google": "1234567890"])
        #expect(
            row.identities.map(\.indexKey) == [
                "email#Ada@example.com", "phone#+14155550100", "provider#google#1234567890",
            ])
        #expect(row.passwordHash == Self.hash && row.leftOut.isEmpty)
    }

    @Test func rowsThatCannotBeUsersSaySo() throws {
        func problem(_ changes: [String: JSONValue]) -> String? {
            var values: [String: JSONValue] = ["id": .string(Self.id), "created_at": "2024-05-01 12:00:00+00"]
            values.merge(changes) { $1 }
            do {
                _ = try SupabaseUserRow(values)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem([:]) == nil)
        #expect(problem(["id": "42"]) == "bad row: id is not a UUID")
        #expect(problem(["email": "nobody"]) == "bad row: email is not an address")
        #expect(problem(["phone": "12"]) == "bad row: phone is not an international number")
        #expect(problem(["created_at": .null]) == "bad row: created_at is missing")
        #expect(problem(["updated_at": "yesterday"]) == "bad row: updated_at is not a time")
        #expect(problem(["raw_user_meta_data": "[1]"]) == "bad row: raw_user_meta_data is not a JSON object")
        #expect(problem(["raw_user_meta_data": "{"]) == "bad row: raw_user_meta_data is not JSON")
        #expect(
            problem(["identities": [["provider": "google"]]]) == "bad row: an identity without provider and provider_id"
        )
        #expect(
            problem(["encrypted_password": "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"])
                == "unsupported hash: not a bcrypt hash")
        #expect(problem(["encrypted_password": "$2a$10$short"]) == "unsupported hash: a malformed bcrypt hash")
        #expect(problem(["banned_until": "2999-01-01 00:00:00+00"]) == nil)
        #expect(problem(["banned_until": "2001-01-01 00:00:00+00"]) == nil)
        // `banned_until` comes over as the user's ban, as Supabase keeps it: one that has lapsed
        // bans no one.
        for (until, banned) in [("2999-01-01 00:00:00+00", true), ("2001-01-01 00:00:00+00", false)] {
            let row = try SupabaseUserRow(
                ["id": .string(Self.id), "created_at": "2024-05-01 12:00:00+00", "banned_until": .string(until)])
            #expect(row.user.bannedUntil == PostgresTimestamp.milliseconds(until))
            #expect(row.user.isBanned(at: 1_800_000_000_000) == banned)
        }
        #expect(problem(["deleted_at": "2001-01-01 00:00:00+00"]) == "not imported: deleted")
        #expect(problem(["is_anonymous": "t"]) == "not imported: an anonymous user")
        // A phone Supabase never confirmed is left out, and said so.
        let unconfirmed = try SupabaseUserRow(
            ["id": .string(Self.id), "created_at": "2024-05-01 12:00:00+00", "phone": "+14155550100"])
        #expect(unconfirmed.user.phone == nil && unconfirmed.leftOut == ["its unconfirmed phone"])
        #expect(unconfirmed.identities.isEmpty)
    }

    /// The imported user signs in with its Supabase password, which is then stored as scrypt;
    /// its Google subject signs in to it rather than making a new user; and a second run of the
    /// same file changes nothing in the store.
    @Test func importedUsersSignInAndASecondRunChangesNothing() async throws {
        let fixture = try await PasswordAccountsTests.Fixture()
        let importer = SupabaseUserImport(store: fixture.store, clock: fixture.clock)
        let export = try SupabaseExport(bytes: Array(Self.csv.utf8))
        let first = try await importer.run(export)
        #expect(first.imported == 1 && first.withPassword == 1 && first.skipped.isEmpty)
        let snapshot = try await Self.contents(of: fixture.store)
        let second = try await importer.run(export)
        #expect(second.imported == 0 && second.alreadyPresent == 1 && second.skipped.isEmpty)
        #expect(try await Self.contents(of: fixture.store) == snapshot)

        let id = Self.id.lowercased()
        let users = UserDirectory(store: fixture.store, clock: fixture.clock)
        #expect(
            try await users.findOrCreate(provider: "google", subject: "1234567890", verifiedEmail: nil).user.id == id)
        #expect(try await users.findOrCreate(phone: PhoneNumber("+14155550100")!).user.id == id)
        await #expect(throws: AccountError.invalidCredentials) {
            try await fixture.accounts.signIn(
                email: "Ada@example.com", password: "U*U", app: fixture.app, sourceIP: nil)
        }
        #expect(try await PasswordCredentials.hash(userID: id, in: fixture.store) == Self.hash)
        let (user, _) = try await fixture.accounts.signIn(
            email: "Ada@EXAMPLE.com", password: "U*U*U", app: fixture.app, sourceIP: nil)
        #expect(user.id == id && user.appMetadata == ["role": "admin"])
        let redone = try #require(try await PasswordCredentials.hash(userID: id, in: fixture.store))
        #expect(redone.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        _ = try await fixture.accounts.signIn(
            email: "Ada@example.com", password: "U*U*U", app: fixture.app, sourceIP: nil)
        #expect(try await PasswordCredentials.hash(userID: id, in: fixture.store) == redone)
    }

    /// An address, phone or provider subject another user has stops the whole row: nothing of
    /// it is written, and the report names the row, its id, the reason and the holder.
    @Test func aTakenIdentitySkipsTheRowAndWritesNothingOfIt() async throws {
        let fixture = try await PasswordAccountsTests.Fixture()
        let owner = try await UserDirectory(store: fixture.store, clock: fixture.clock).findOrCreate(
            provider: "google", subject: "1234567890", verifiedEmail: nil)
        let report = try await SupabaseUserImport(store: fixture.store, clock: fixture.clock).run(
            try SupabaseExport(bytes: Array(Self.csv.utf8)))
        #expect(report.imported == 0)
        #expect(
            report.lines.first
                == "row 1 (\(Self.id.lowercased())): skipped: duplicate google identity (user \(owner.user.id) has it)")
        #expect(try await fixture.store.get("Users", key: ItemKey(.string(Self.id.lowercased()))) == nil)
        #expect(try await fixture.store.get("UserIndex", key: ItemKey("email#Ada@example.com")) == nil)
        #expect(try await PasswordCredentials.hash(userID: Self.id.lowercased(), in: fixture.store) == nil)
    }

    /// An address Supabase never confirmed is left out of a user who signs in another way (here
    /// a confirmed phone): kept, a sign-up of that address would have replaced the user as an
    /// abandoned sign-up (deleting it and stranding its phone), and the address's real owner
    /// confirming it would have joined an account whose phone is someone else's. A user with
    /// only an unconfirmed address stays the pending sign-up it is.
    @Test func anUnconfirmedEmailIsLeftOutOfAUserWhoSignsInAnotherWay() async throws {
        let row: [String: JSONValue] = [
            "id": .string(Self.id), "created_at": "2024-05-01 12:00:00+00", "email": "victim@example.com",
            "phone": "14155550100", "phone_confirmed_at": "2024-05-02 00:00:00+00",
        ]
        let phoneUser = try SupabaseUserRow(row)
        #expect(phoneUser.user.email == nil && phoneUser.user.providers["email"] == nil)
        #expect(phoneUser.identities == [.phone(PhoneNumber("+14155550100")!)])
        #expect(phoneUser.leftOut == ["its unconfirmed email (it signs in another way)"])
        var onlyEmail = row
        onlyEmail["phone"] = nil
        onlyEmail["phone_confirmed_at"] = nil
        let pending = try SupabaseUserRow(onlyEmail)
        #expect(pending.user.email == "victim@example.com" && pending.leftOut.isEmpty)

        // Imported, the phone user is untouched by a sign-up of the address it left out.
        let fixture = try await PasswordAccountsTests.Fixture()
        let json = JSONValue.array([.object(row)]).serialized
        let report = try await SupabaseUserImport(store: fixture.store, clock: fixture.clock).run(
            try SupabaseExport(bytes: Array(json.utf8)))
        #expect(report.imported == 1)
        #expect(try await fixture.store.get("UserIndex", key: ItemKey("email#victim@example.com")) == nil)
        _ = try await fixture.signUp("victim@example.com")
        let id = Self.id.lowercased()
        #expect(try await fixture.store.get("Users", key: ItemKey(.string(id))) != nil)
        let users = UserDirectory(store: fixture.store, clock: fixture.clock)
        #expect(try await users.findOrCreate(phone: PhoneNumber("+14155550100")!).user.id == id)
    }

    /// A rehash holds only while the checked hash is still stored: a password changed meanwhile stays.
    @Test func aRehashNeverOverwritesAPasswordChangedMeanwhile() async throws {
        let fixture = try await PasswordAccountsTests.Fixture()
        try await fixture.store.transactWrite([PasswordCredentials.firstWrite(userID: "u1", hash: "new", at: 1)])
        await #expect(throws: StoreError.self) {
            try await fixture.store.transactWrite([
                PasswordCredentials.rehash(userID: "u1", from: "old", to: "scrypt", at: 2)
            ])
        }
        #expect(try await PasswordCredentials.hash(userID: "u1", in: fixture.store) == "new")
        await #expect(throws: StoreError.self) {
            try await fixture.store.transactWrite([PasswordCredentials.firstWrite(userID: "u1", hash: "other", at: 3)])
        }
    }

    static func contents(of store: SQLiteStore) async throws -> [String: [Item]] {
        var contents: [String: [Item]] = [:]
        for table in ["Users", "UserIndex", "Passwords"] {
            contents[table] = try await store.scan(table, limit: nil)
        }
        return contents
    }
}
