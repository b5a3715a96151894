import GatehouseJSON

/// A store that does only what the function is granted (`TableGrants`), so a run through the
/// emulator fails where IAM would refuse the deployed function: each call is checked for the
/// IAM actions the DynamoDB store sends for it, whichever backend answers. An update needs
/// `delete` as well on a table with a TTL attribute, since the DynamoDB store deletes an
/// expired item it finds before updating again; a transaction needs each of its writes'
/// actions (`TransactWriteItems` is allowed by them, and a `check` by `ConditionCheckItem`).
public struct GrantedStore: KeyValueStore {
    let base: any KeyValueStore
    let grants: TableGrants
    /// The tables with a TTL attribute; nil: every table, as if each had one.
    let expiring: Set<String>?

    public init(_ base: any KeyValueStore, grants: TableGrants, expiring: Set<String>?) {
        self.base = base
        self.grants = grants
        self.expiring = expiring
    }

    /// `notGranted` for the first of `actions` on `table` that the grants lack.
    func require(_ actions: TableAction..., on table: String) throws(StoreError) {
        for action in actions where !grants.allows(action, on: table) {
            throw .notGranted(table: table, action: action)
        }
    }

    /// What an update of `table` needs.
    func requireUpdate(on table: String) throws(StoreError) {
        try require(.update, on: table)
        if expiring?.contains(table) ?? true { try require(.delete, on: table) }
    }

    public func get(_ table: String, key: ItemKey) async throws -> Item? {
        try require(.read, on: table)
        return try await base.get(table, key: key)
    }

    public func put(_ table: String, item: Item, condition: WriteCondition?) async throws {
        try require(.put, on: table)
        try await base.put(table, item: item, condition: condition)
    }

    public func delete(_ table: String, key: ItemKey, condition: WriteCondition?) async throws -> Item? {
        try require(.delete, on: table)
        return try await base.delete(table, key: key, condition: condition)
    }

    public func update(
        _ table: String, key: ItemKey, actions: [UpdateAction], condition: WriteCondition?
    ) async throws -> Item {
        try requireUpdate(on: table)
        return try await base.update(table, key: key, actions: actions, condition: condition)
    }

    public func query(
        _ table: String, partition: JSONValue, sortKey: SortKeyCondition?, limit: Int?, ascending: Bool
    ) async throws -> [Item] {
        try require(.read, on: table)
        return try await base.query(table, partition: partition, sortKey: sortKey, limit: limit, ascending: ascending)
    }

    public func scan(_ table: String, limit: Int?) async throws -> [Item] {
        try require(.scan, on: table)
        return try await base.scan(table, limit: limit)
    }

    public func transactWrite(_ operations: [WriteOperation]) async throws {
        for operation in operations {
            switch operation {
            case .put(let table, _, _): try require(.put, on: table)
            case .delete(let table, _, _): try require(.delete, on: table)
            case .update(let table, _, _, _): try requireUpdate(on: table)
            case .check(let table, _, _): try require(.check, on: table)
            }
        }
        try await base.transactWrite(operations)
    }

    public func transactGet(_ keys: [(table: String, key: ItemKey)]) async throws -> [Item?] {
        for (table, _) in keys { try require(.read, on: table) }
        return try await base.transactGet(keys)
    }
}
