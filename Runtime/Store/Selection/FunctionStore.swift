import DynamoDBStore
import Store

/// The store a function opens, by its environment alone, so the functions' code is the same
/// locally and deployed: the SQLite file when `GATEHOUSE_STORE` names one (the emulator sets
/// it), DynamoDB otherwise (`GATEHOUSE_TABLES`, `TABLE_<LogicalId>`, and the credentials and
/// region Lambda sets; `DYNAMODB_ENDPOINT` for a local endpoint).
public enum FunctionStore {
    /// The store, checked: a bad setting fails here, at the cold start.
    public static func open(environment: [String: String]) throws -> any KeyValueStore {
        if usesFile(environment) { return try SQLiteStore(environment: environment) }
        return try DynamoDBStore(environment: environment)
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
