import Foundation
import GatehouseJSON
import Testing

/// `gatehouse db` as a real process on a private store file.
struct DatabaseCommandTests {
    let cli = GatehouseCLI()
    let store = FileManager.default.temporaryDirectory.appendingPathComponent(
        "gatehouse-db-\(UUID().uuidString)/store.sqlite"
    ).path

    func db(_ arguments: [String]) async throws -> GatehouseCLI.Run {
        try await cli.run(["db"] + arguments, environment: ["GATEHOUSE_STORE": store])
    }

    @Test func putGetScanAndAConsumingDelete() async throws {
        let future = Int(Date().timeIntervalSince1970) + 3600
        #expect(try await db(["put", "AuthCodes", #"{"code":"abc","app":"demo","ttl":\#(future)}"#]).status == 0)
        #expect(try await db(["put", "AuthCodes", #"{"code":"-starts-with-dash","app":"demo"}"#]).status == 0)
        let scan = try await db(["scan", "AuthCodes"])
        let lines = scan.stdoutText.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            try JSONDecoder().decode(JSONValue.self, from: Data(lines[1].utf8)) == [
                "code": "abc", "app": "demo", "ttl": .number(Double(future)),
            ])
        #expect(try await db(["get", "AuthCodes", "-starts-with-dash"]).stdoutText.contains("\"app\":\"demo\""))

        let first = try await db(["delete", "AuthCodes", "abc"])
        #expect(first.status == 0)
        #expect(try first.json()["code"] == "abc")
        let second = try await db(["delete", "AuthCodes", "abc"])
        #expect(second.status == 0)
        #expect(second.stdout.isEmpty, "consumed once: nothing the second time")
    }

    @Test func expiredItemsNeverAppearAndTheSweepRemovesThem() async throws {
        let past = Int(Date().timeIntervalSince1970) - 5
        #expect(try await db(["put", "MagicLinks", #"{"tokenHash":"h1","ttl":\#(past)}"#]).status == 0)
        #expect(try await db(["put", "MagicLinks", #"{"tokenHash":"h2"}"#]).status == 0)
        #expect(try await db(["scan", "MagicLinks"]).stdoutText.split(separator: "\n").count == 1)
        #expect(try await db(["get", "MagicLinks", "h1"]).stdout.isEmpty)
        #expect(try await db(["sweep"]).stdoutText == "1\n")
    }

    @Test func tablesAreTheTemplates() async throws {
        let run = try await db(["tables"])
        let names = try run.stdoutText.split(separator: "\n").map {
            try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))["name"]?.stringValue
        }
        #expect(names.count == 16)
        #expect(names.contains("Sessions"))
    }

    @Test func badInputIsOneLineAndExitTwo() async throws {
        for (arguments, message) in [
            (["get", "Nope", "x"], "error: no table named Nope; tables: Apps,"),
            (["get", "Sessions", "u1"], "error: Sessions is keyed by userId and sessionId: give 2 value(s)"),
            (["put", "Apps", "[1]"], "error: the item is not a JSON object: [1]"),
            (["put", "Apps", #"{"name":"no id"}"#], "error: Apps: the item has no key attribute id"),
            (["put", "Apps", #"{"id":7}"#], "error: Apps: key attribute id must be a non-empty string"),
        ] {
            let run = try await db(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.hasPrefix(message), "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
        // Nothing was written: the table holds only the demo app every fresh store has, and the
        // apps' site association its registration wrote.
        let apps = try await db(["scan", "Apps"]).stdoutText.split(separator: "\n")
        #expect(apps.count == 2)
        #expect(apps.contains { $0.contains(#""id":"demo""#) } && apps.contains { $0.contains(#""id":".well-known""#) })
    }

    @Test func aFileThatIsNotAStoreIsNamed() async throws {
        try FileManager.default.createDirectory(
            atPath: (store as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(String(repeating: "garbage ", count: 200).utf8).write(to: URL(fileURLWithPath: store))
        let run = try await db(["scan", "Apps"])
        #expect(run.status == 2)
        #expect(
            run.stderr == "error: cannot use \(store) as the store: it is not a SQLite database, or it is corrupt\n")
    }
}
