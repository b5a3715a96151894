import Emulator
import Foundation
import GatehouseJSON
import Store
import Testing

struct StoreTemplateTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theProjectTemplateDeclaresTheSignInTables() throws {
        let data = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("template.json"))
        let tables = try TableDefinition.definitions(inTemplate: JSONDecoder().decode(JSONValue.self, from: data))
        // The template declares exactly the tables AuthKit's code names (`static let table = "…"`,
        // `usersTable`, …): a table added to one and not the other fails here, by name.
        let named = try Self.tablesTheCodeNames()
        #expect(tables.map(\.name) == named)
        #expect(tables.count == 16)
        let sessions = try #require(tables.first { $0.name == "Sessions" })
        #expect(sessions.partitionKey == .init(name: "userId", type: .string))
        #expect(sessions.sortKey == .init(name: "sessionId", type: .string))
        #expect(sessions.timeToLiveAttribute == "ttl")
        #expect(tables.first { $0.name == "Apps" }?.timeToLiveAttribute == nil)
        // Every other table's items can expire (users, their index and passwords only while a
        // sign-up waits for confirmation).
        for table in tables where table.name != "Apps" {
            #expect(table.timeToLiveAttribute == "ttl", "\(table.name) expires")
        }
    }

    /// The tables AuthKit's sources name, sorted: each `static let …table = "Name"`.
    static func tablesTheCodeNames() throws -> [String] {
        let folder = repositoryRoot.appendingPathComponent("Functions/AuthKit")
        var names: Set<String> = []
        for case let file as String in FileManager.default.enumerator(atPath: folder.path) ?? .init()
        where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: #/static let [A-Za-z]*[tT]able = "([A-Za-z]+)"/#) {
                names.insert(String(match.1))
            }
        }
        return names.sorted()
    }

    @Test(arguments: [
        (#"{"KeySchema":[]}"#, "KeySchema must list a HASH key and at most one RANGE key"),
        (
            #"{"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]}"#,
            "key attribute id is not in AttributeDefinitions"
        ),
        (
            #"{"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"B"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]}"#,
            "AttributeType B of id is not supported here (S or N)"
        ),
        (
            #"{"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"RANGE"}]}"#,
            "KeySchema has no HASH key"
        ),
        (
            #"{"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"TimeToLiveSpecification":{"Enabled":true}}"#,
            "TimeToLiveSpecification needs AttributeName"
        ),
    ])
    func aTableTheStoreCannotUseNamesItsPlace(properties: String, reason: String) throws {
        let template = #"{"Resources":{"T":{"Type":"AWS::DynamoDB::Table","Properties":\#(properties)}}}"#
        let root = try JSONDecoder().decode(JSONValue.self, from: Data(template.utf8))
        #expect(throws: StoreError.invalidTable(place: "Resources.T.Properties", reason: reason)) {
            try TableDefinition.definitions(inTemplate: root)
        }
    }

    @Test func aProcessOpeningByPathAloneSeesTheRecordedTables() async throws {
        let path = StoreFixtures.temporaryPath()
        let emulator = try SQLiteStore(path: path, tables: StoreFixtures.tables)
        try await emulator.put("Tokens", item: ["id": "shared"], condition: nil)
        let function = try SQLiteStore(path: path)
        #expect(function.tableNames == ["Counters", "Events", "Scores", "Tokens"])
        #expect(try await function.get("Tokens", key: ItemKey("shared")) == ["id": "shared"])
        // A new template replaces the recorded tables.
        let renamed = try SQLiteStore(path: path, tables: [StoreFixtures.tables[0]])
        #expect(renamed.tableNames == ["Tokens"])
        #expect(try SQLiteStore(path: path).tableNames == ["Tokens"])
    }
}
