import AWSSigning
import ArgumentParser
import AuthKit
import DynamoDBStore
import Emulator
import Foundation
import OutboundHTTP
import Store

/// The project's store as the CLI opens it, with the template's tables: the SQLite file (the
/// default), or a DynamoDB endpoint with `--store dynamodb` (its missing tables created).
struct ProjectStore {
    let store: any KeyValueStore
    let tables: [TableDefinition]
    /// The file, when the store is one (`db sweep`, start-api's sweeps).
    let file: SQLiteStore?

    /// Which backend `--store` names.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case file
        case dynamodb
    }

    static func open(_ project: ProjectOptions, template: Template) async throws -> ProjectStore {
        let opened: ProjectStore
        switch project.storeKind {
        case .file:
            let file = try SQLiteStore(path: project.storeFile, tables: template.tables)
            opened = ProjectStore(store: file, tables: template.tables, file: file)
        case .dynamodb:
            // A local endpoint (moto_server is Python) may be slow under load; the CLI waits.
            let http =
                project.dynamodbEndpoint == nil
                ? OutboundHTTPClient.shared
                : OutboundHTTPClient(configuration: .patient())
            let store = DynamoDBStore(
                settings: dynamoDBSettings(project), tables: template.tables.map(Self.table), http: http)
            // Tables are made only on a local endpoint, never in an account.
            if project.dynamodbEndpoint != nil { try await store.createMissingTables() }
            opened = ProjectStore(store: store, tables: template.tables, file: nil)
        }
        // A fresh local file has the demo app, so the flow works out of the box. DynamoDB never
        // gets it, local endpoint or not: the same command reaches a deployed stack's tables,
        // where an app anyone can sign in to with the CLI's dev codes has no place.
        if opened.file != nil, template.tables.contains(where: { $0.name == AppRegistry.table }) {
            try await AppRegistry(store: opened.store).ensureDemoApp()
        }
        return opened
    }

    /// A table's name at the endpoint: `TABLE_<LogicalId>` from the CLI's environment (a
    /// deployed stack's name), else its logical id, as `Ref` gives it locally.
    static func table(_ definition: TableDefinition) -> DynamoDBTable {
        let named = ProcessInfo.processInfo.environment["TABLE_\(definition.name)"]
        return DynamoDBTable(
            definition: definition, physicalName: named.flatMap { $0.isEmpty ? nil : $0 } ?? definition.name)
    }

    /// The CLI's own settings for the endpoint: the region and credentials of its environment
    /// when set, else us-east-1 and the local credentials the functions get.
    static func dynamoDBSettings(_ project: ProjectOptions) -> DynamoDBSettings {
        let environment = ProcessInfo.processInfo.environment
        let credentials =
            AWSCredentials(environment: environment)
            ?? AWSCredentials(environment: LambdaEnvironment.localCredentials)!
        return DynamoDBSettings(
            region: environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1",
            endpoint: project.dynamodbEndpoint, credentials: credentials)
    }

    /// What a function needs to open this store: `GATEHOUSE_STORE` for the file; the tables'
    /// schemas and the endpoint for DynamoDB.
    var functionEnvironment: [String: String] {
        if let file { return ["GATEHOUSE_STORE": file.path] }
        var environment = [TableDefinition.environmentVariable: TableDefinition.environmentText(tables)]
        if let endpoint = (store as? DynamoDBStore)?.endpoint {
            environment["DYNAMODB_ENDPOINT"] = endpoint
            // A local endpoint (plain http) may be slow under load: the functions wait too.
            if endpoint.hasPrefix("http://") { environment["GATEHOUSE_OUTBOUND_TIMEOUT_SECONDS"] = "30" }
        }
        return environment
    }
}
