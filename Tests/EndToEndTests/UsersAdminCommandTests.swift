import Foundation
import GatehouseJSON
import TestServers
import Testing

/// `gatehouse users list|show|ban|unban|signout|delete` and `gatehouse apps key` as real
/// processes on a fresh file store: the admin API's operations (`UserAdmin`) from a terminal.
struct UsersAdminCommandTests {
    let cli = GatehouseCLI()

    func user(_ arguments: [String]) async throws -> JSONValue {
        let run = try await cli.run(["users"] + arguments)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return try JSONValue(parsing: Array(run.stdout))
    }

    @Test func anOperatorFindsBansUnbansSignsOutAndDeletesAUser() async throws {
        let code = try await cli.run(["dev", "auth-code", "--app", "demo", "--email", "ada@example.com"])
        #expect(code.status == 0, "stderr: \(code.stderr)")
        let listed = try await cli.run(["users", "list"])
        #expect(listed.stdoutText.contains("ada@example.com") && listed.stderr.contains("1 of 1 users"))
        let shown = try await user(["show", "--email", "ada@example.com"])
        let id = try #require(shown["id"]?.stringValue)
        #expect(shown["email"] == "ada@example.com" && shown["bannedUntil"] == nil)

        let banned = try await user(["ban", id, "--for", "24h"])
        let until = try #require(banned["bannedUntil"]?.numberValue)
        #expect(until > Date().timeIntervalSince1970 * 1000 + 86_000_000)
        #expect(try await user(["unban", id])["bannedUntil"] == nil)
        #expect(try await cli.run(["users", "ban", id, "--for", "forever"]).status == 2)

        #expect(try await cli.run(["users", "signout", id]).status == 0)
        #expect(try await cli.run(["users", "delete", id]).status == 0)
        let gone = try await cli.run(["users", "show", id])
        #expect(gone.status == 2 && gone.stderr.contains("The user does not exist."))
    }

    @Test func aServerKeyIsPrintedOnceListedWithoutItAndRevoked() async throws {
        let made = try await cli.run(["apps", "key", "create", "demo"])
        #expect(made.status == 0, "stderr: \(made.stderr)")
        let secret = made.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.hasPrefix("gh_sk_"))
        let listed = try await cli.run(["apps", "key", "list", "demo"])
        #expect(!listed.stdoutText.contains(secret))
        let id = try #require(try JSONValue(parsing: Array(listed.stdout))["id"]?.stringValue)
        #expect(made.stderr.contains(id))
        // No trace of the secret in the store.
        let apps = try await cli.run(["db", "scan", "Apps"])
        #expect(!apps.stdoutText.contains(secret))
        #expect(try await cli.run(["apps", "key", "revoke", "demo", id]).status == 0)
        #expect(try await cli.run(["apps", "key", "list", "demo"]).stdoutText.isEmpty)
        let again = try await cli.run(["apps", "key", "revoke", "demo", id])
        #expect(again.status == 2 && again.stderr.contains("no server key"))
    }
}

extension UsersAdminCommandTests {
    /// The same commands on DynamoDB (moto), in tables of this test's own.
    @Test func theCommandsWorkOnDynamoDB() async throws {
        let store = ["--store", "dynamodb", "--dynamodb-endpoint", try await MotoServer.shared.endpoint()]
        let suffix = UUID().uuidString.prefix(8)
        let tables = [
            "Users", "UserIndex", "Passwords", "Apps", "AuthCodes", "Sessions", "RefreshTokens", "MagicLinks",
            "EmailTokens", "OtpCodes", "RateLimits", "UsedAssertions", "Outbox", "Factors", "Passkeys",
        ]
        let environment = Dictionary(uniqueKeysWithValues: tables.map { ("TABLE_\($0)", "\($0)-\(suffix)") })
        func run(_ arguments: [String]) async throws -> GatehouseCLI.Run {
            let run = try await cli.run(arguments + store, environment: environment)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            return run
        }
        _ = try await run(["apps", "add", "--id", "shop", "--name", "Shop", "--mobile-scheme", "com.example.shop"])
        _ = try await run(["dev", "auth-code", "--app", "shop", "--email", "ada@example.com"])
        let shown = try JSONValue(
            parsing: Array(try await run(["users", "show", "--email", "ada@example.com"]).stdout))
        let id = try #require(shown["id"]?.stringValue)
        #expect(try await run(["users", "list"]).stdoutText.contains(id))
        let banned = try JSONValue(parsing: Array(try await run(["users", "ban", id, "--for", "1h"]).stdout))
        #expect(banned["bannedUntil"] != nil)
        let unbanned = try JSONValue(parsing: Array(try await run(["users", "unban", id]).stdout))
        #expect(unbanned["bannedUntil"] == nil)
        let secret = try await run(["apps", "key", "create", "shop"]).stdoutText
        #expect(secret.hasPrefix("gh_sk_"))
        #expect(try await run(["apps", "key", "list", "shop"]).stdoutText.contains("\"app\":\"shop\""))
        _ = try await run(["users", "signout", id])
        _ = try await run(["users", "delete", id])
        #expect(try await run(["users", "list"]).stdoutText.isEmpty)
    }
}
