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
        #expect(
            tables.map(\.name) == [
                "Apps", "AuthCodes", "EmailTokens", "MagicLinks", "OtpCodes", "Outbox", "Passwords", "RateLimits",
                "RefreshTokens", "Sessions", "UsedAssertions", "UserIndex", "Users",
            ]
        )
        let sessions = try #require(tables.first { $0.name == "Sessions" })
        #expect(sessions.partitionKey == .init(name: "userId", type: .string))
        #expect(sessions.sortKey == .init(name: "sessionId", type: .string))
        #expect(sessions.timeToLiveAttribute == "ttl")
        #expect(tables.first { $0.name == "Apps" }?.timeToLiveAttribute == nil)
        // Users, their index and passwords expire only while a sign-up waits for confirmation.
        for expiring in [
            "AuthCodes", "MagicLinks", "OtpCodes", "RefreshTokens", "UsedAssertions", "RateLimits", "Outbox",
            "EmailTokens", "Users", "UserIndex", "Passwords",
        ] {
            #expect(tables.first { $0.name == expiring }?.timeToLiveAttribute == "ttl", "\(expiring) expires")
        }
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
