import GatehouseJSON

/// One write of a transaction.
public enum WriteOperation: Sendable, Equatable {
    case put(table: String, item: [String: JSONValue], condition: WriteCondition?)
    case delete(table: String, key: ItemKey, condition: WriteCondition?)
    case update(table: String, key: ItemKey, actions: [UpdateAction], condition: WriteCondition?)
    /// DynamoDB's ConditionCheck: the transaction goes through only if `condition` holds on the
    /// item at `key`; nothing is written to it.
    case check(table: String, key: ItemKey, condition: WriteCondition)
}
