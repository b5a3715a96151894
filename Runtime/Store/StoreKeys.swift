import GatehouseJSON

/// Turns key values into the SQL values of the `pk` and `sk` columns, checking their types.
enum StoreKeys {
    /// Where an item lives: its table and column values.
    struct Location: Hashable, Sendable {
        let table: String
        let key: Values
    }

    /// The `pk` and `sk` column values (`sk` is '' for tables without a sort key).
    struct Values: Hashable, Sendable {
        let partition: SQLValue
        let sort: SQLValue
    }

    static func value(
        _ value: JSONValue, for attribute: TableDefinition.KeyAttribute, in table: String
    ) throws
        -> SQLValue
    {
        switch (attribute.type, value) {
        case (.string, .string(let text)) where !text.isEmpty:
            return .text(text)
        case (.number, .number(let number)) where number.isFinite:
            if number.rounded() == number, abs(number) < 9_007_199_254_740_992 {
                return .integer(Int64(number))
            }
            return .real(number)
        default:
            let expected = attribute.type == .string ? "non-empty string" : "number"
            throw StoreError.wrongKeyType(table: table, attribute: attribute.name, expected: expected)
        }
    }

    static func values(of key: ItemKey, in definition: TableDefinition) throws -> Values {
        let partition = try value(key.partition, for: definition.partitionKey, in: definition.name)
        if let sortKey = definition.sortKey {
            guard let sort = key.sort else {
                throw StoreError.missingKeyAttribute(table: definition.name, attribute: sortKey.name)
            }
            return Values(partition: partition, sort: try value(sort, for: sortKey, in: definition.name))
        }
        guard key.sort == nil else {
            throw StoreError.invalidUpdate("\(definition.name) has no sort key, but the key gives one")
        }
        return Values(partition: partition, sort: .text(""))
    }

    /// The key of `item` under `definition`.
    static func key(of item: Item, in definition: TableDefinition) throws -> ItemKey {
        guard let partition = item[definition.partitionKey.name] else {
            throw StoreError.missingKeyAttribute(table: definition.name, attribute: definition.partitionKey.name)
        }
        guard let sortKey = definition.sortKey else { return ItemKey(partition) }
        guard let sort = item[sortKey.name] else {
            throw StoreError.missingKeyAttribute(table: definition.name, attribute: sortKey.name)
        }
        return ItemKey(partition, sort)
    }
}
