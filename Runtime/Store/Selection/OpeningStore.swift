import GatehouseJSON
import Store
import Synchronization

/// A store opened on a thread of the pool while the function's start goes on (`FunctionStore.
/// openInBackground`): each call waits for the open, then goes to the store. An open that failed
/// fails the call that waited for it, and the next call opens again, so a store that was
/// unreachable for a moment does not stay so for the process's life.
final class OpeningStore: KeyValueStore {
    private let open: @Sendable () throws -> any KeyValueStore
    private let opening: Mutex<Task<any KeyValueStore, any Error>>

    init(_ open: @escaping @Sendable () throws -> any KeyValueStore) {
        self.open = open
        opening = Mutex(Task { try open() })
    }

    /// The store, once open.
    private func store() async throws -> any KeyValueStore {
        let task = opening.withLock { $0 }
        do {
            return try await task.value
        } catch {
            opening.withLock { current in
                if current == task { current = Task { [open] in try open() } }
            }
            throw error
        }
    }

    func get(_ table: String, key: ItemKey) async throws -> Item? {
        try await store().get(table, key: key)
    }

    func put(_ table: String, item: Item, condition: WriteCondition?) async throws {
        try await store().put(table, item: item, condition: condition)
    }

    func delete(_ table: String, key: ItemKey, condition: WriteCondition?) async throws -> Item? {
        try await store().delete(table, key: key, condition: condition)
    }

    func update(_ table: String, key: ItemKey, actions: [UpdateAction], condition: WriteCondition?) async throws -> Item
    {
        try await store().update(table, key: key, actions: actions, condition: condition)
    }

    func query(
        _ table: String, partition: JSONValue, sortKey: SortKeyCondition?, limit: Int?, ascending: Bool
    ) async throws -> [Item] {
        try await store().query(table, partition: partition, sortKey: sortKey, limit: limit, ascending: ascending)
    }

    func scan(_ table: String, limit: Int?) async throws -> [Item] {
        try await store().scan(table, limit: limit)
    }

    func transactWrite(_ operations: [WriteOperation]) async throws {
        try await store().transactWrite(operations)
    }

    func transactGet(_ keys: [(table: String, key: ItemKey)]) async throws -> [Item?] {
        try await store().transactGet(keys)
    }
}
