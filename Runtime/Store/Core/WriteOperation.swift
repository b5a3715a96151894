import GatehouseJSON

/// One write of a transaction.
public enum WriteOperation: Sendable, Equatable {
    case put(table: String, item: [String: JSONValue], condition: WriteCondition?)
    case delete(table: String, key: ItemKey, condition: WriteCondition?)
    case update(table: String, key: ItemKey, actions: [UpdateAction], condition: WriteCondition?)
}
