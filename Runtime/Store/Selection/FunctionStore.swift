import DynamoDBStore
import Store

/// The store a function opens, by its environment alone, so the functions' code is the same
/// locally and deployed: the SQLite file when `GATEHOUSE_STORE` names one (the emulator sets
/// it), DynamoDB otherwise (`GATEHOUSE_TABLES`, `TABLE_<LogicalId>`, and the credentials and
/// region Lambda sets; `DYNAMODB_ENDPOINT` for a local endpoint). With `STORE_ACCESS` (the
/// template sets it for every function that opens the store), the store does only what the
/// function's policies allow (`GrantedStore`), so the emulator refuses what IAM would.
public enum FunctionStore {
    /// The store, checked: a bad setting fails here, at the cold start.
    public static func open(environment: [String: String]) throws -> any KeyValueStore {
        let store: any KeyValueStore =
            usesFile(environment)
            ? try SQLiteStore(environment: environment) : try DynamoDBStore(environment: environment)
        guard let text = environment[TableGrants.environmentVariable] else { return store }
        let expiring = try environment[TableDefinition.environmentVariable].map {
            Set(try TableDefinition.parseEnvironmentText($0).filter { $0.timeToLiveAttribute != nil }.map(\.name))
        }
        return GrantedStore(store, grants: try TableGrants(environmentText: text), expiring: expiring)
    }

    /// The store of `open(environment:)`, opened on a thread of the pool while the caller goes
    /// on (a function whose first request needs its store only after other work: the
    /// Authorizer, after the token's signature). Its settings are checked when it opens; an open
    /// that fails fails the call that waits for it, and the next call opens again.
    public static func openInBackground(environment: [String: String]) -> any KeyValueStore {
        OpeningStore {
            try loadLibrary(environment: environment)
            return try open(environment: environment)
        }
    }

    /// Loads the file backend's library now when the function will use it (see
    /// `SQLiteStore.loadLibrary`); DynamoDB needs nothing loaded.
    public static func loadLibrary(environment: [String: String]) throws {
        if usesFile(environment) { try SQLiteStore.loadLibrary() }
    }

    private static func usesFile(_ environment: [String: String]) -> Bool {
        environment["GATEHOUSE_STORE"].map { !$0.isEmpty } ?? false
    }
}
