import GatehouseJSON

/// An item: a JSON object holding its key attributes.
public typealias Item = [String: JSONValue]

/// A DynamoDB-like key-value store. The SQLite backend implements it locally; a DynamoDB
/// backend can implement it later without changing callers.
///
/// An expired item (its TTL attribute, epoch seconds, is at or before now) is never returned
/// and counts as absent in every condition, stricter than DynamoDB.
public protocol KeyValueStore: Sendable {
    func get(_ table: String, key: ItemKey) async throws -> Item?
    /// Writes `item`, replacing any item with its key, if `condition` holds.
    func put(_ table: String, item: Item, condition: WriteCondition?) async throws
    /// Deletes the item if `condition` holds, returning it (nil when there was none): a
    /// single-use token is consumed by exactly one caller.
    func delete(_ table: String, key: ItemKey, condition: WriteCondition?) async throws -> Item?
    /// Applies `actions`, creating the item when absent, and returns the new item.
    func update(_ table: String, key: ItemKey, actions: [UpdateAction], condition: WriteCondition?) async throws -> Item
    /// Items of one partition in sort-key order.
    func query(
        _ table: String, partition: JSONValue, sortKey: SortKeyCondition?, limit: Int?, ascending: Bool
    )
        async throws -> [Item]
    /// Every item of a table, for tooling.
    func scan(_ table: String, limit: Int?) async throws -> [Item]
    /// All the writes or none: a failed condition cancels the transaction and names the operation.
    func transactWrite(_ operations: [WriteOperation]) async throws
    /// The live items at `keys` (1 to 100, no item twice), in their order, nil for each absent
    /// or expired one, read at one moment in one round trip (DynamoDB's `TransactGetItems`,
    /// which IAM allows by `GetItem`).
    func transactGet(_ keys: [(table: String, key: ItemKey)]) async throws -> [Item?]
}
