import Emulator
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// Users moved from a Cognito user pool in moto (`Tests/Support/Moto/cognito_pool.py`):
/// `gatehouse users import --from-cognito` brings them without passwords, and with
/// `COGNITO_MIGRATION_POOL` set a first password sign-in through start-api (Supabase's Python
/// client) checks the Cognito password once and keeps it, so the user signs in afterwards with
/// the Cognito user gone; a wrong password answers as an unknown address does. Then `gatehouse
/// users export` round-trips through another store, and `GET /users/me/export` holds no secret.
@Suite(.serialized)
struct CognitoMigrationTests {
    let cli = GatehouseCLI()
    static let adaPassword = "Ada cognito password 1!"
    static let gracePassword = "Grace cognito password 1!"

    /// Runs `cognito_pool.py` against moto; its printed JSON.
    func pool(_ arguments: [String]) async throws -> JSONValue {
        let script = GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Moto/cognito_pool.py")
        let run = try await ChildProcess.capture("/usr/bin/env", [PythonTools.python, script.path] + arguments)
        guard case .exited(0) = run.termination.reason else {
            throw CognitoPoolError(description: "cognito_pool.py \(arguments.first ?? ""): \(run.standardError)")
        }
        return try JSONValue(parsing: Array(run.standardOutput.utf8))
    }

    struct CognitoPoolError: Error, CustomStringConvertible {
        let description: String
    }

    /// The demo app's publishable key, for the `apikey` header.
    func apiKey() async throws -> String {
        let apps = try await cli.run(["apps", "list"])
        let demo = try apps.stdoutText.split(separator: "\n").map { try JSONValue(parsing: Array($0.utf8)) }
            .first { $0["id"] == "demo" }
        return try #require(demo?["publishableKey"]?.stringValue)
    }

    /// `POST /auth/v1/token?grant_type=password` as supabase-js sends it: status and body.
    func signIn(_ api: LocalAPI, key: String, _ email: String, _ password: String) async throws -> (Int, [UInt8]) {
        let body = JSONValue.object(["email": .string(email), "password": .string(password)]).serialized
        let answer = try await api.request(
            "POST", "/auth/v1/token?grant_type=password",
            headers: [("apikey", key), ("Content-Type", "application/json")], body: Array(body.utf8))
        return (answer.status, answer.body)
    }

    /// Signs `pairs` in with supabase-py (`imported_sign_in.py`): what it saw, one entry a pair.
    func supabaseClient(_ api: LocalAPI, key: String, _ pairs: [(String, String)]) async throws -> [JSONValue] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("pairs-\(UUID().uuidString).json")
        let json = JSONValue.array(pairs.map { [.string($0.0), .string($0.1)] })
        try Data(json.serialized.utf8).write(to: input)
        let script = GatehouseCLI.repositoryRoot.appendingPathComponent("Tests/Support/Supabase/imported_sign_in.py")
        let run = try await ChildProcess.capture(
            "/bin/sh",
            [
                "-c", "exec \"$0\" \"$1\" \"$2\" \"$3\" < \"$4\"", PythonTools.python, script.path,
                "http://127.0.0.1:\(api.port)", key, input.path,
            ])
        guard case .exited(0) = run.termination.reason else {
            throw CognitoPoolError(description: "supabase-py failed: \(run.standardError)")
        }
        return try #require(try JSONValue(parsing: Array(run.standardOutput.utf8)).arrayValue)
    }

    @Test func cognitoUsersImportThenSignInWithTheirCognitoPasswordAndAfterwardsWithoutCognito() async throws {
        let endpoint = try await MotoServer.shared.endpoint()
        let setup = try await pool(["setup", endpoint])
        let poolID = try #require(setup["pool"]?.stringValue)
        let clientID = try #require(setup["client"]?.stringValue)
        let adaSub = try #require(setup["subs"]?["ada@moved.example"]?.stringValue)
        let aws = [
            "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER": endpoint,
        ]

        // The import: every user without a password; the disabled one banned for good.
        let imported = try await cli.run(["users", "import", "--from-cognito", poolID], environment: aws)
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        let lines = imported.stdoutText.split(separator: "\n").map(String.init)
        #expect(
            lines.last
                == "3 rows: 3 imported (0 with a bcrypt password, 1 awaiting email confirmation), 0 already present, 0 skipped",
            "\(lines)")
        let disSub = try #require(setup["subs"]?["dis@moved.example"]?.stringValue)
        let dis = try JSONValue(parsing: Array(try await cli.run(["db", "get", "Users", disSub.lowercased()]).stdout))
        #expect(dis["bannedUntil"] == .number(253_402_300_799_000), "\(dis)")
        #expect(imported.stderr.contains("Cognito: 3 rows in "), "\(imported.stderr)")
        let stored = try JSONValue(parsing: Array(try await cli.run(["db", "get", "Users", adaSub]).stdout))
        #expect(stored["email"] == "ada@moved.example" && stored["phone"] == "+14155550123")
        #expect(stored["appMetadata"] == ["groups": ["admins"]] && stored["name"] == "Ada Lovelace")
        #expect(stored["providers"]?["cognito"]?.stringValue == adaSub)

        // Grace joins Cognito after the import: her first sign-in creates her.
        let graceSub = try #require(
            try await pool(["add-user", endpoint, poolID, "grace@moved.example", Self.gracePassword])["sub"]?
                .stringValue)
        let variables = [
            "SupabaseToken": [
                "COGNITO_MIGRATION_POOL": poolID, "COGNITO_MIGRATION_CLIENT_ID": clientID,
                "AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER": endpoint,
            ]
        ]
        try await LocalAPI.with(cli: cli, variables: variables) { api in
            let key = try await apiKey()
            // A wrong password of a Cognito user answers exactly as an unknown address does.
            let wrong = try await signIn(api, key: key, "grace@moved.example", "Not her password 1!")
            let unknown = try await signIn(api, key: key, "nobody@moved.example", "Not her password 1!")
            #expect(wrong.0 == 400 && wrong.0 == unknown.0)
            #expect(wrong.1 == unknown.1, "\(String(decoding: wrong.1, as: UTF8.self))")
            // An address Cognito never verified is not moved.
            let uma = try await signIn(api, key: key, "uma@moved.example", "Uma cognito password 1!")
            #expect(uma.0 == unknown.0 && uma.1 == unknown.1, "\(String(decoding: uma.1, as: UTF8.self))")

            let first = try await supabaseClient(
                api, key: key, [("ada@moved.example", Self.adaPassword), ("grace@moved.example", Self.gracePassword)])
            #expect(first[0]["id"]?.stringValue == adaSub, "\(first[0])")
            #expect(first[0]["appMetadata"] == ["groups": ["admins"]])
            #expect(first[1]["id"]?.stringValue == graceSub, "\(first[1])")

            // Cognito forgets them: they sign in with Gatehouse's own hash.
            _ = try await pool(["delete-user", endpoint, poolID, "ada@moved.example"])
            _ = try await pool(["delete-user", endpoint, poolID, "grace@moved.example"])
            let again = try await supabaseClient(
                api, key: key, [("ada@moved.example", Self.adaPassword), ("grace@moved.example", Self.gracePassword)])
            #expect(again[0]["id"]?.stringValue == adaSub && again[1]["id"]?.stringValue == graceSub, "\(again)")

            // The user's own export, behind the authorizer: everything kept, no secret.
            let anonymous = try await api.request("GET", "/users/me/export")
            #expect(anonymous.status == 401)
            let token = try #require(try await api.signIn("ada@moved.example", cli: cli).accessToken)
            let export = try await api.request(
                "GET", "/users/me/export", headers: [("Authorization", "Bearer \(token)")])
            #expect(export.status == 200)
            let body = try JSONValue(parsing: export.body)
            #expect(
                body["user"]?["id"]?.stringValue == adaSub && body["user"]?["appMetadata"] == ["groups": ["admins"]])
            #expect((body["sessions"]?.arrayValue?.count ?? 0) >= 2)
            let text = String(decoding: export.body, as: UTF8.self)
            #expect(!text.contains("$scrypt$") && !text.contains("hash") && !text.contains(token))
            #expect(!api.log.contains(Self.adaPassword) && !api.log.contains(Self.gracePassword), "no password logged")
        }
        let hashes = try await cli.run(["db", "scan", "Passwords"]).stdoutText
        #expect(hashes.split(separator: "\n").count == 2 && hashes.contains("$scrypt$"))
    }

    /// `users export` into another store and out again gives the same lines, with the hashes;
    /// the rate is on standard error.
    @Test func exportImportExportThroughTheCLIChangesNothing() async throws {
        let rows = """
            {"id":"11111111-2222-4333-8444-555555555555","email":"ada@moved.example","created_at":"2024-05-01T12:00:00+00:00","email_confirmed_at":"2024-05-01T12:00:00+00:00","encrypted_password":"$2a$04$abcdefghijklmnopqrstuugKIrUD7YU/fQfE7r8rTC.gKX2FTtmFq","raw_user_meta_data":{"full_name":"Ada"},"identities":[{"provider":"email","provider_id":"11111111-2222-4333-8444-555555555555"},{"provider":"google","provider_id":"g-1"}]}
            {"id":"66666666-7777-4888-9999-aaaaaaaaaaaa","phone":"14155550100","phone_confirmed_at":"2024-05-02T12:00:00+00:00","created_at":"2024-05-02T12:00:00+00:00","identities":[{"provider":"phone","provider_id":"66666666-7777-4888-9999-aaaaaaaaaaaa"}]}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("users-\(UUID().uuidString).json")
        try Data(rows.utf8).write(to: file)
        #expect(try await cli.run(["users", "import", file.path]).status == 0)
        let first = try await cli.run(["users", "export", "--include-password-hashes"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdoutText.split(separator: "\n").count == 2 && first.stdoutText.contains("$2a$04$"))
        #expect(first.stderr.contains("2 rows in ") && first.stderr.contains("rows/s"), "\(first.stderr)")
        let plain = try await cli.run(["users", "export"])
        #expect(!plain.stdoutText.contains("$2a$") && !plain.stdoutText.contains("encrypted_password"))

        let other = GatehouseCLI()
        let exported = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        try first.stdout.write(to: exported)
        let imported = try await other.run(["users", "import", exported.path])
        #expect(
            imported.status == 0
                && imported.stdoutText.hasSuffix(
                    "2 imported (1 with a bcrypt password, 0 awaiting email confirmation), 0 already present, 0 skipped\n"
                ), "\(imported.stdoutText)")
        let second = try await other.run(["users", "export", "--include-password-hashes"])
        #expect(second.stdout == first.stdout)
    }

    /// `--store dynamodb` (moto) exports what the file store exports from the same rows, and
    /// its export imports into other tables and out again unchanged.
    @Test func theExportReadsDynamoDBAsTheFile() async throws {
        let rows = """
            {"id":"11111111-2222-4333-8444-555555555555","email":"ada@moved.example","created_at":"2024-05-01T12:00:00+00:00","encrypted_password":"$2a$04$abcdefghijklmnopqrstuugKIrUD7YU/fQfE7r8rTC.gKX2FTtmFq","raw_app_meta_data":{"groups":["admins"]}}
            {"id":"66666666-7777-4888-9999-aaaaaaaaaaaa","phone":"14155550100","phone_confirmed_at":"2024-05-02T12:00:00+00:00","created_at":"2024-05-02T12:00:00+00:00","identities":[{"provider":"github","provider_id":"42"}]}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("users-\(UUID().uuidString).json")
        try Data(rows.utf8).write(to: file)
        let endpoint = try await MotoServer.shared.endpoint()
        func tables() -> [String: String] {
            let suffix = UUID().uuidString.prefix(8)
            return ["Users", "UserIndex", "Passwords", "Factors", "Passkeys"].reduce(into: [String: String]()) {
                $0["TABLE_\($1)"] = "\($1)-\(suffix)"
            }
        }
        let store = ["--store", "dynamodb", "--dynamodb-endpoint", endpoint]
        let (first, second) = (tables(), tables())
        #expect(try await cli.run(["users", "import", file.path] + store, environment: first).status == 0)
        let exported = try await cli.run(["users", "export", "--include-password-hashes"] + store, environment: first)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(try await cli.run(["users", "import", file.path]).status == 0)
        let fromFile = try await cli.run(["users", "export", "--include-password-hashes"])
        #expect(exported.stdout == fromFile.stdout && exported.stdoutText.split(separator: "\n").count == 2)
        let again = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        try exported.stdout.write(to: again)
        #expect(try await cli.run(["users", "import", again.path] + store, environment: second).status == 0)
        let secondExport = try await cli.run(
            ["users", "export", "--include-password-hashes"] + store, environment: second)
        #expect(secondExport.stdout == exported.stdout)
    }

    /// A pool that signs in by free-text usernames (no `UsernameAttributes`): an attacker's
    /// account named after the victim's address, whose verified address is the attacker's own,
    /// moves to no one: neither the victim's Gatehouse user (a magic link's, without a password)
    /// nor a new user of an address no Gatehouse user has.
    @Test func aUsernameThatIsSomeoneElsesAddressMovesNothing() async throws {
        let endpoint = try await MotoServer.shared.endpoint()
        let setup = try await pool(["setup-usernames", endpoint, "victim@moved.example", "nobody.yet@moved.example"])
        let poolID = try #require(setup["pool"]?.stringValue)
        let clientID = try #require(setup["client"]?.stringValue)
        let victim = "22222222-3333-4444-8555-666666666666"
        let row = """
            {"id":"\(victim)","email":"victim@moved.example","created_at":"2024-05-01T12:00:00+00:00","email_confirmed_at":"2024-05-01T12:00:00+00:00"}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("users-\(UUID().uuidString).json")
        try Data(row.utf8).write(to: file)
        #expect(try await cli.run(["users", "import", file.path]).status == 0)
        let variables = [
            "SupabaseToken": [
                "COGNITO_MIGRATION_POOL": poolID, "COGNITO_MIGRATION_CLIENT_ID": clientID,
                "AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER": endpoint,
            ]
        ]
        let password = "Mallory cognito password 1!"
        try await LocalAPI.with(cli: cli, variables: variables) { api in
            let key = try await apiKey()
            let unknown = try await signIn(api, key: key, "unknown@moved.example", password)
            for address in ["victim@moved.example", "nobody.yet@moved.example"] {
                let answer = try await signIn(api, key: key, address, password)
                #expect(answer.0 == 400 && answer.0 == unknown.0 && answer.1 == unknown.1, "\(address)")
            }
        }
        let passwords = try await cli.run(["db", "scan", "Passwords"]).stdoutText
        #expect(!passwords.contains(victim), "no password stored for the victim")
        let users = try await cli.run(["db", "scan", "Users"]).stdoutText
        #expect(!users.contains("nobody.yet@moved.example"), "no user created for an address never proved")
    }
}
