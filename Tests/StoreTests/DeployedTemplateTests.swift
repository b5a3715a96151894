import Emulator
import Foundation
import GatehouseJSON
import Store
import Testing

/// What a deployed function needs from template.json to open DynamoDB: the tables' key schemas
/// (`GATEHOUSE_TABLES`, matching the table resources), and for each table it is named
/// (`TABLE_<LogicalId>`) a policy on exactly that table, and no policy on a table it is not named.
struct DeployedTemplateTests {
    static let templatePath = StoreTemplateTests.repositoryRoot.appendingPathComponent("template.json").path

    @Test func theSchemasLineIsTheTemplatesTables() throws {
        let template = try Template.load(path: Self.templatePath)
        let jwks = try template.function(named: "Jwks")
        let line = try #require(jwks.environment[TableDefinition.environmentVariable])
        #expect(
            try TableDefinition.parseEnvironmentText(line).sorted { $0.name < $1.name }
                == template.tables.sorted { $0.name < $1.name })
    }

    @Test func eachFunctionHasAPolicyForExactlyTheTablesItIsNamed() throws {
        let root = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: Self.templatePath))))
        let resources = try #require(root["Resources"]?.objectValue)
        let tables = Set(resources.filter { $0.value["Type"] == "AWS::DynamoDB::Table" }.keys)
        var storeFunctions = 0
        for (name, resource) in resources where resource["Type"] == "AWS::Serverless::Function" {
            let variables = resource["Properties"]?["Environment"]?["Variables"]?.objectValue ?? [:]
            var named: Set<String> = []
            for (variable, value) in variables where variable.hasPrefix("TABLE_") {
                let table = String(variable.dropFirst("TABLE_".count))
                #expect(value == ["Ref": .string(table)], "\(name).\(variable) is a Ref to its table")
                #expect(tables.contains(table), "\(name) names a table the template has")
                named.insert(table)
            }
            let policies = resource["Properties"]?["Policies"]?.arrayValue ?? []
            let allowed = Set(
                policies.compactMap { policy -> String? in
                    let body = policy["DynamoDBCrudPolicy"] ?? policy["DynamoDBReadPolicy"]
                    return body?["TableName"]?["Ref"]?.stringValue
                })
            #expect(allowed == named, "\(name): policies \(allowed.sorted()) for tables \(named.sorted())")
            if !named.isEmpty { storeFunctions += 1 }
        }
        #expect(storeFunctions == 23, "every function but Jwks uses the store")
    }

    /// The tables that hold accounts outlive the stack (a delete or a replacement keeps them)
    /// and can be restored to any second of the last 35 days; tables of short-lived items
    /// (codes, links, sessions, counters) are neither.
    @Test func accountTablesAreRetainedWithPointInTimeRecovery() throws {
        let root = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: Self.templatePath))))
        let resources = try #require(root["Resources"]?.objectValue)
        let accounts: Set<String> = ["Users", "UserIndex", "Passwords", "Apps"]
        for (name, resource) in resources where resource["Type"] == "AWS::DynamoDB::Table" {
            let kept = accounts.contains(name)
            #expect((resource["DeletionPolicy"] == "Retain") == kept, "\(name)")
            #expect((resource["UpdateReplacePolicy"] == "Retain") == kept, "\(name)")
            let recovery = resource["Properties"]?["PointInTimeRecoverySpecification"]?["PointInTimeRecoveryEnabled"]
            #expect((recovery == true) == kept, "\(name)")
        }
        #expect(accounts.allSatisfy { resources[$0] != nil })
    }

    /// Every function's `STAGE` is the deploy's `Stage`: `prod` resolves to `prod` everywhere.
    @Test func everyFunctionsStageIsTheStageParameter() throws {
        let prod = try Template.load(path: Self.templatePath, parameters: ["Stage": "prod"])
        let local = try Template.load(path: Self.templatePath)
        for (name, function) in prod.functions {
            #expect(function.environment["STAGE"] == "prod", "\(name)")
            #expect(try local.function(named: name).environment["STAGE"] == "dev", "\(name)")
        }
        #expect(prod.functions.count >= 23)
    }
}
