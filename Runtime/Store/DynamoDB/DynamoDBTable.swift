import GatehouseJSON
import StoreCore

/// A table as the DynamoDB store uses it: its definition (keys, TTL attribute) and the name it
/// has in the account.
public struct DynamoDBTable: Sendable, Equatable {
    public let definition: TableDefinition
    /// The physical name: `TABLE_<LogicalId>` in the template (a `Ref`), so one stack's tables
    /// never collide with another's.
    public let physicalName: String

    public init(definition: TableDefinition, physicalName: String) {
        self.definition = definition
        self.physicalName = physicalName
    }

    /// `{"pk": {"S": "…"}}` (and the sort key) for `key`, checked against the key schema.
    func keyAttributes(_ key: ItemKey) throws(StoreError) -> JSONValue {
        var attributes: [String: JSONValue] = [
            definition.partitionKey.name: try Self.checked(key.partition, definition.partitionKey, definition.name)
        ]
        if let sort = definition.sortKey {
            guard let value = key.sort else {
                throw .missingKeyAttribute(table: definition.name, attribute: sort.name)
            }
            attributes[sort.name] = try Self.checked(value, sort, definition.name)
        }
        return .object(attributes)
    }

    /// The key of `item`, checked against the key schema.
    func key(of item: [String: JSONValue]) throws(StoreError) -> ItemKey {
        guard let partition = item[definition.partitionKey.name] else {
            throw .missingKeyAttribute(table: definition.name, attribute: definition.partitionKey.name)
        }
        var sort: JSONValue?
        if let sortKey = definition.sortKey {
            guard let value = item[sortKey.name] else {
                throw .missingKeyAttribute(table: definition.name, attribute: sortKey.name)
            }
            sort = value
        }
        let key = ItemKey(partition, sort)
        _ = try keyAttributes(key)
        return key
    }

    private static func checked(
        _ value: JSONValue, _ attribute: TableDefinition.KeyAttribute, _ table: String
    ) throws(StoreError) -> JSONValue {
        switch (attribute.type, value) {
        case (.string, .string), (.number, .number): return AttributeValue.encode(value)
        case (.string, _): throw .wrongKeyType(table: table, attribute: attribute.name, expected: "string")
        case (.number, _): throw .wrongKeyType(table: table, attribute: attribute.name, expected: "number")
        }
    }
}
