import GatehouseJSON
import Store
import Synchronization

/// A store that passes every call to another and writes down which calls were made ("get
/// RefreshTokens", "transactWrite RefreshTokens RateLimits", …): what a flow costs in round
/// trips, which DynamoDB bills and a function waits for one by one.
final class RecordingStore: KeyValueStore {
    private let base: any KeyValueStore
    private let log = Mutex<[String]>([])
    private let interruption = Mutex<(@Sendable () async throws -> Void)?>(nil)

    init(_ base: any KeyValueStore) { self.base = base }

    /// The calls since the last `reset`.
    var calls: [String] { log.withLock { $0 } }

    func reset() { log.withLock { $0 = [] } }

    /// Runs `body` once, just before the next transaction is sent: what another request (or the
    /// clock) did between a flow's read and its write.
    func beforeNextTransaction(_ body: @escaping @Sendable () async throws -> Void) {
        interruption.withLock { $0 = body }
    }

    private func record(_ call: String) { log.withLock { $0.append(call) } }

    func get(_ table: String, key: ItemKey) async throws -> Item? {
        record("get \(table)")
        return try await base.get(table, key: key)
    }

    func put(_ table: String, item: Item, condition: WriteCondition?) async throws {
        record("put \(table)")
        try await base.put(table, item: item, condition: condition)
    }

    func delete(_ table: String, key: ItemKey, condition: WriteCondition?) async throws -> Item? {
        record("delete \(table)")
        return try await base.delete(table, key: key, condition: condition)
    }

    func update(
        _ table: String, key: ItemKey, actions: [UpdateAction], condition: WriteCondition?
    ) async throws -> Item {
        record("update \(table)")
        return try await base.update(table, key: key, actions: actions, condition: condition)
    }

    func query(
        _ table: String, partition: JSONValue, sortKey: SortKeyCondition?, limit: Int?, ascending: Bool
    ) async throws -> [Item] {
        record("query \(table)")
        return try await base.query(table, partition: partition, sortKey: sortKey, limit: limit, ascending: ascending)
    }

    func transactGet(_ keys: [(table: String, key: ItemKey)]) async throws -> [Item?] {
        record((["transactGet"] + keys.map(\.table)).joined(separator: " "))
        return try await base.transactGet(keys)
    }

    func scan(_ table: String, limit: Int?) async throws -> [Item] {
        record("scan \(table)")
        return try await base.scan(table, limit: limit)
    }

    func transactWrite(_ operations: [WriteOperation]) async throws {
        let tables = operations.map { operation -> String in
            switch operation {
            case .put(let table, _, _), .delete(let table, _, _), .update(let table, _, _, _), .check(let table, _, _):
                return table
            }
        }
        if let body = interruption.withLock({ $0.take() }) { try await body() }
        record((["transactWrite"] + tables).joined(separator: " "))
        try await base.transactWrite(operations)
    }
}
