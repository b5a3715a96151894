import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// `gatehouse users import` as a real process, on Supabase-shaped exports made by Python's
/// bcrypt (`Tests/Fixtures/Supabase/generate.py`): 1,000 users from CSV and a JSON file of
/// rows each imported or skipped for a reason; then every user signs in through start-api with
/// its Supabase password and is stored as scrypt.
@Suite(.serialized)
struct SupabaseUserImportTests {
    let cli = GatehouseCLI()
    static let fixtures = GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Fixtures/Supabase")
    static let csv = fixtures.appendingPathComponent("users.csv").path
    static let json = fixtures.appendingPathComponent("edge-cases.json").path

    /// User i's address and password, as generate.py makes them.
    static func email(_ i: Int) -> String { "user\(String(format: "%04d", i))@moved.example" }
    static func password(_ i: Int) -> String {
        i % 9 == 0 ? "Moved user \(i) ünïcødé" : "moved-user-\(String(format: "%04d", i))-secret"
    }

    /// The items of the tables an import writes, one JSON object a line, per table.
    func contents() async throws -> [String] {
        var lines: [String] = []
        for table in ["Users", "UserIndex", "Passwords"] {
            let run = try await cli.run(["db", "scan", table])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            lines += run.stdoutText.split(separator: "\n").map { "\(table) \($0)" }
        }
        return lines
    }

    /// The demo app's publishable key, for the `apikey` header.
    func apiKey() async throws -> String {
        let apps = try await cli.run(["apps", "list"])
        let demo = try apps.stdoutText.split(separator: "\n").map { try JSONValue(parsing: Array($0.utf8)) }
            .first { $0["id"] == "demo" }
        return try #require(demo?["publishableKey"]?.stringValue)
    }

    /// Each stored user's id by address.
    func ids() async throws -> [String: String] {
        let run = try await cli.run(["db", "scan", "Users"])
        var ids: [String: String] = [:]
        for line in run.stdoutText.split(separator: "\n") {
            let user = try JSONValue(parsing: Array(line.utf8))
            if let email = user["email"]?.stringValue, let id = user["id"]?.stringValue { ids[email] = id }
        }
        return ids
    }

    @Test func aThousandSupabaseUsersImportOnceThenSignInWithTheirPasswordsAndAreStoredAsScrypt() async throws {
        let imported = try await cli.run(["users", "import", Self.csv])
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        // Every 50th user never confirmed its address; those of them that sign in another way
        // (a confirmed phone, Google, Apple) come without it (someone else's, maybe), said row by
        // row; the others are the pending sign-ups they were.
        let lines = imported.stdoutText.split(separator: "\n").map(String.init)
        let dropped = Set(
            lines.filter { $0.hasSuffix(": imported without its unconfirmed email (it signs in another way)") }
                .compactMap { line in Int(line.dropFirst("row ".count).prefix { $0 != " " }).map { $0 - 1 } })
        #expect(!dropped.isEmpty && dropped.allSatisfy { $0 % 50 == 49 }, "\(dropped.sorted())")
        #expect(
            lines.last
                == "1000 rows: 1000 imported (1000 with a bcrypt password, \(20 - dropped.count) awaiting email "
                + "confirmation), 0 already present, 0 skipped")
        #expect(lines.count == dropped.count + 1)
        // The rate, on standard error: `1000 rows in 1.23 s: 813 rows/s`.
        #expect(imported.stderr.hasPrefix("1000 rows in "), "\(imported.stderr)")
        let edges = try await cli.run(["users", "import", Self.json])
        #expect(edges.status == 0, "stderr: \(edges.stderr)")
        let ids = try await ids()
        #expect(edges.stdoutText == (try Self.edgeReport(ids: ids, firstRun: true)))
        for run in [imported, edges] {
            #expect(!run.stdoutText.contains("$2") && !run.stderr.contains("$2"), "no hash in the report")
        }

        // Again: nothing changes, and the report says why each row is not imported.
        let before = try await contents()
        let again = try await cli.run(["users", "import", Self.csv])
        #expect(
            again.stdoutText
                == "1000 rows: 0 imported (0 with a bcrypt password, 0 awaiting email confirmation), "
                + "1000 already present, 0 skipped\n")
        let edgesAgain = try await cli.run(["users", "import", Self.json])
        #expect(edgesAgain.stdoutText == (try Self.edgeReport(ids: ids, firstRun: false)))
        #expect(try await contents() == before)

        try await LocalAPI.with(cli: cli) { api in
            let key = try await apiKey()
            try await signInEveryone(api, key: key, ids: ids, withoutEmail: dropped)
            try await signInWithSupabasesClient(api, key: key, ids: ids)
        }
        let passwords = try await cli.run(["db", "scan", "Passwords"]).stdoutText.split(separator: "\n")
        var byUser: [String: String] = [:]
        for line in passwords {
            let item = try JSONValue(parsing: Array(line.utf8))
            byUser[item["userId"]?.stringValue ?? ""] = item["hash"]?.stringValue
        }
        for i in 0..<1000 where !dropped.contains(i) {
            let id = try #require(ids[Self.email(i)])
            let hash = try #require(byUser[id])
            // Signed in: scrypt at the cost LocalAPI gives the functions; never confirmed: as imported.
            #expect(hash.hasPrefix(i % 50 == 49 ? "$2" : "$scrypt$ln=10,r=8,p=1$"), "user \(i)")
        }
    }

    /// Every imported user signs in with its password through `POST /auth/v1/token`, 8 at a
    /// time; one that never confirmed its address gets `email_not_confirmed` (or, imported without
    /// it, `invalid_credentials`), a wrong password
    /// `invalid_credentials`; then a sample signs in again, now against scrypt.
    func signInEveryone(_ api: LocalAPI, key: String, ids: [String: String], withoutEmail: Set<Int>) async throws {
        func signIn(_ email: String, _ password: String) async throws -> (Int, JSONValue) {
            let body = JSONValue.object(["email": .string(email), "password": .string(password)]).serialized
            let answer = try await api.request(
                "POST", "/auth/v1/token?grant_type=password",
                headers: [
                    ("apikey", key), ("Content-Type", "application/json"), ("X-Supabase-Api-Version", "2024-01-01"),
                ],
                body: Array(body.utf8))
            return (answer.status, try JSONValue(parsing: answer.body))
        }
        try await withThrowingTaskGroup(of: (Int, Int, JSONValue).self) { group in
            var next = 0
            func add() {
                let i = next
                next += 1
                group.addTask {
                    let (status, body) = try await signIn(Self.email(i), Self.password(i)); return (i, status, body)
                }
            }
            for _ in 0..<8 { add() }
            while let (i, status, body) = try await group.next() {
                if withoutEmail.contains(i) {
                    // Imported without its unconfirmed address: no account has it.
                    #expect(status == 400 && body["code"] == "invalid_credentials", "user \(i): \(body)")
                } else if i % 50 == 49 {
                    #expect(status == 400 && body["code"] == "email_not_confirmed", "user \(i): \(body)")
                } else {
                    #expect(status == 200, "user \(i): \(body)")
                    #expect(body["user"]?["id"]?.stringValue == ids[Self.email(i)], "user \(i) keeps its id")
                }
                if next < 1000 { add() }
            }
        }
        for i in [3, 18, 27] {
            let (status, body) = try await signIn(Self.email(i), Self.password(i) + "!")
            #expect(status == 400 && body["code"] == "invalid_credentials", "user \(i)")
        }
        for i in [1, 9, 10, 13, 500, 998] {
            let (status, _) = try await signIn(Self.email(i), Self.password(i))
            #expect(status == 200, "user \(i) again")
        }
    }

    /// Supabase's own client signs in imported users and reads them as Supabase gave them.
    func signInWithSupabasesClient(_ api: LocalAPI, key: String, ids: [String: String]) async throws {
        let pairs: JSONValue = [
            [.string(Self.email(0)), .string(Self.password(0))], [.string(Self.email(7)), .string(Self.password(7))],
            ["json.user@moved.example", "json user password"], ["no.password@moved.example", "any password at all"],
        ]
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("pairs-\(UUID().uuidString).json")
        try Data(pairs.serialized.utf8).write(to: input)
        let script = GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/imported_sign_in.py")
        let run = try await ChildProcess.capture(
            "/bin/sh",
            [
                "-c", "exec \"$0\" \"$1\" \"$2\" \"$3\" < \"$4\"", PythonTools.python, script.path,
                "http://127.0.0.1:\(api.port)", key, input.path,
            ])
        guard case .exited(0) = run.termination.reason else {
            Issue.record("the client run failed (supabase-auth comes from .ci/run): \(run.standardError)")
            return
        }
        let seen = try #require(try JSONValue(parsing: Array(run.standardOutput.utf8)).arrayValue)
        #expect(
            seen[0] == [
                "email": .string(Self.email(0)), "id": .string(ids[Self.email(0)] ?? ""), "phone": "+14155550000",
                "providers": ["apple", "email", "google", "phone"], "appMetadata": ["role": "editor"],
                "userMetadata": ["name": "User 0"], "identities": ["apple", "email", "google", "phone"],
            ])
        #expect(seen[1]["providers"] == ["email", "google"] && seen[1]["userMetadata"] == [:])
        #expect(
            seen[2]["appMetadata"] == ["plan": "team"] && seen[2]["identities"] == ["email", "github"]
                && seen[2]["userMetadata"]?["full_name"] == "Jay Son")
        // A user imported without a password has none to sign in with.
        #expect(seen[3]["code"] == "invalid_credentials", "\(seen[3])")
    }

    /// `--store dynamodb` imports into a stack's tables exactly as into the file: the same
    /// conditions, the same report, nothing changed by a second run.
    @Test func theImportWritesToDynamoDBOnTheSameConditions() async throws {
        let suffix = UUID().uuidString.prefix(8)
        let tables = ["Users", "UserIndex", "Passwords"].reduce(into: [String: String]()) {
            $0["TABLE_\($1)"] = "\($1)-\(suffix)"
        }
        let store = ["--store", "dynamodb", "--dynamodb-endpoint", try await MotoServer.shared.endpoint()]
        let first = "11111111-2222-4333-8444-555555555555"
        let second = "66666666-7777-4888-9999-aaaaaaaaaaaa"
        let rows = """
            {"id":"\(first)","email":"ada@moved.example","created_at":"2024-05-01T12:00:00+00:00","email_confirmed_at":"2024-05-01T12:00:00+00:00","encrypted_password":"$2a$04$abcdefghijklmnopqrstuugKIrUD7YU/fQfE7r8rTC.gKX2FTtmFq"}
            {"id":"\(second)","email":"ada@Moved.Example","created_at":"2024-05-02T12:00:00+00:00"}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("users-\(suffix).json")
        try Data(rows.utf8).write(to: file)
        let expected = [
            "row 2 (\(second)): skipped: duplicate address (user \(first) has it)",
            "2 rows: 1 imported (1 with a bcrypt password, 0 awaiting email confirmation), 0 already present, 1 skipped",
        ]
        let run = try await cli.run(["users", "import", file.path] + store, environment: tables)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdoutText == expected.joined(separator: "\n") + "\n")
        let again = try await cli.run(["users", "import", file.path] + store, environment: tables)
        #expect(
            again.stdoutText == expected[0] + "\n"
                + "2 rows: 0 imported (0 with a bcrypt password, 0 awaiting email confirmation), 1 already present, 1 skipped\n"
        )
        let stored = try await cli.run(["db", "get", "Users", first] + store, environment: tables)
        #expect(try JSONValue(parsing: Array(stored.stdout))["email"] == "ada@moved.example")
        let password = try await cli.run(["db", "get", "Passwords", first] + store, environment: tables)
        #expect(password.stdoutText.contains("$2a$04$"))
    }

    /// What `users import edge-cases.json` prints: the rows of generate.py's EDGE_CASES.
    static func edgeReport(ids: [String: String], firstRun: Bool) throws -> String {
        let rows = try #require(
            try JSONValue(parsing: Array(Data(contentsOf: URL(fileURLWithPath: json)))).arrayValue)
        func id(_ row: Int) -> String { rows[row - 1]["id"]?.stringValue ?? "" }
        var lines = [
            "row 1 (\(id(1))): skipped: duplicate address (user \(ids[email(1)] ?? "") has it)",
            "row 2: skipped: bad row: id is not a UUID",
            "row 3 (\(id(3))): skipped: unsupported hash: not a bcrypt hash",
            "row 4 (\(id(4))): skipped: unsupported hash: bcrypt at cost 14, above 12",
            "row 6 (\(id(6))): skipped: not imported: deleted",
            "row 7 (\(id(7))): skipped: duplicate google identity (user \(ids[email(7)] ?? "") has it)",
            "row 9: skipped: bad row: not a JSON object",
        ]
        if firstRun {
            lines.append("row 10 (\(id(10))): imported without its unconfirmed phone")
            lines.append(
                "12 rows: 4 imported (3 with a bcrypt password, 0 awaiting email confirmation), 1 already present, 7 skipped"
            )
        } else {
            lines.append(
                "12 rows: 0 imported (0 with a bcrypt password, 0 awaiting email confirmation), 5 already present, 7 skipped"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
