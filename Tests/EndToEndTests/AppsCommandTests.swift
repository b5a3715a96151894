import Crypto
import Foundation
import GatehouseJSON
import TestServers
import Testing

/// `gatehouse apps` as a real process, on a fresh store.
struct AppsCommandTests {
    let cli = GatehouseCLI()

    func listed() async throws -> [String] {
        let run = try await cli.run(["apps", "list"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return try run.stdoutText.split(separator: "\n").map { line in
            try JSONValue(parsing: Array(line.utf8))["id"]?.stringValue ?? ""
        }
    }

    /// `--store dynamodb` is a stack's tables, not a developer's file: opening it never writes the
    /// demo app (an app anyone with the CLI's dev codes could sign in to), while a fresh file
    /// store still gets it. Before, every command that opened DynamoDB wrote it there.
    @Test func theDemoAppIsWrittenOnlyToAFileStore() async throws {
        let store = ["--store", "dynamodb", "--dynamodb-endpoint", try await MotoServer.shared.endpoint()]
        // A table of this test's own on the shared server.
        let tables = ["TABLE_Apps": "Apps-\(UUID().uuidString.prefix(8))"]
        let run = try await cli.run(["apps", "list"] + store, environment: tables)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdoutText.isEmpty, "no app: \(run.stdoutText)")
        let code = try await cli.run(
            ["dev", "auth-code", "--app", "demo", "--email", "ada@example.com"] + store, environment: tables)
        #expect(code.status == 2)
        #expect(code.stderr.contains("no app demo"))
        #expect(try await listed() == ["demo"])
    }

    @Test func aFreshStoreHasTheDemoAppAndAppsComeAndGo() async throws {
        #expect(try await listed() == ["demo"])

        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("app-\(UUID().uuidString).pem")
        try Data(P256.Signing.PrivateKey().publicKey.pemRepresentation.utf8).write(to: keyFile)
        let add = try await cli.run([
            "apps", "add", "--id", "shop", "--name", "Shop", "--base-url", "https://shop.example.com",
            "--mobile-scheme", "com.example.shop", "--public-key", keyFile.path,
        ])
        #expect(add.status == 0, "stderr: \(add.stderr)")
        let added = try JSONValue(parsing: Array(add.stdout))
        #expect(added["baseUrl"] == "https://shop.example.com")
        #expect(added["publicKeys"]?.arrayValue?.first?["crv"] == "P-256")
        #expect(try await listed() == ["demo", "shop"])
        // Sign in with Apple needs its nonce unless the app opts out.
        #expect(added["appleNonceOptional"] == nil)
        let legacy = try await cli.run([
            "apps", "add", "--id", "legacy", "--name", "Legacy", "--mobile-scheme", "com.example.legacy",
            "--apple-nonce-optional",
        ])
        #expect(legacy.status == 0, "stderr: \(legacy.stderr)")
        #expect(try JSONValue(parsing: Array(legacy.stdout))["appleNonceOptional"] == true)
        #expect(try await cli.run(["apps", "remove", "legacy"]).status == 0)

        let again = try await cli.run(["apps", "add", "--id", "shop", "--name", "Shop"])
        #expect(again.status == 2)
        #expect(again.stderr.contains("an app with id shop already exists"))
        let bad = try await cli.run(["apps", "add", "--id", "Bad App", "--name", "Bad"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("id: use 1 to 64 lower-case letters"))

        #expect(try await cli.run(["apps", "remove", "shop"]).status == 0)
        #expect(try await listed() == ["demo"])
        let code = try await cli.run(["dev", "auth-code", "--app", "shop", "--email", "ada@example.com"])
        #expect(code.status == 2)
        #expect(code.stderr.contains("no app shop"))
    }
}
