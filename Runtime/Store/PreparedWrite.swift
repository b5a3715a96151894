import GatehouseJSON

/// A write checked before its transaction starts: table known, key present and typed, item
/// within the size limit. Inside the transaction it only checks its condition and writes.
struct PreparedWrite: Sendable {
    enum Kind: Sendable {
        case put(Item, encoded: String)
        case delete
        case update(key: ItemKey, actions: [UpdateAction])
        case check
    }

    let table: String
    let definition: TableDefinition
    let location: StoreKeys.Location
    let keyDescription: String
    let condition: WriteCondition?
    let kind: Kind

    init(operation: WriteOperation, store: SQLiteStore) throws {
        switch operation {
        case .put(let table, _, let condition), .delete(let table, _, let condition),
            .update(let table, _, _, let condition):
            self.table = table
            self.condition = condition
        case .check(let table, _, let condition):
            self.table = table
            self.condition = condition
        }
        definition = try store.definition(table)
        let key: ItemKey
        switch operation {
        case .put(_, let item, _): key = try StoreKeys.key(of: item, in: definition)
        case .delete(_, let given, _), .update(_, let given, _, _), .check(_, let given, _): key = given
        }
        location = StoreKeys.Location(table: table, key: try StoreKeys.values(of: key, in: definition))
        keyDescription = key.description
        switch operation {
        case .put(_, let item, _):
            kind = .put(item, encoded: try StoreItems.encode(item, table: table))
        case .delete:
            kind = .delete
        case .check:
            kind = .check
        case .update(_, _, let actions, _):
            let keyNames = [definition.partitionKey.name] + (definition.sortKey.map { [$0.name] } ?? [])
            for action in actions {
                let name: String
                switch action {
                case .set(let attribute, _), .add(let attribute, _), .remove(let attribute): name = attribute
                }
                guard !keyNames.contains(name) else {
                    throw StoreError.invalidUpdate("\(table): the key attribute \(name) cannot be updated")
                }
            }
            kind = .update(key: key, actions: actions)
        }
    }

    /// Whether the write must read the current item: for its condition, to return it (delete),
    /// or to build on it (update).
    var needsCurrentItem: Bool {
        if condition != nil { return true }
        if case .put = kind { return false }
        return true
    }

    func conditionHolds(on current: Item?) -> Bool {
        switch condition {
        case nil: return true
        case .itemNotExists: return current == nil
        case .itemExists: return current != nil
        case .attributeEquals(let name, let value): return current?[name] == value
        case .attributeBelow(let name, let limit):
            switch current?[name] {
            case nil: return true
            case .number(let number)?: return number < limit
            case _?: return false
            }
        case .itemExistsWithAttributeBelow(let name, let limit):
            guard let current else { return false }
            switch current[name] {
            case nil: return true
            case .number(let number)?: return number < limit
            case _?: return false
            }
        }
    }

    /// Writes; returns the deleted item (delete) or the new item (update), nil for a put or a check.
    func apply(to db: SQLiteConnection, current: Item?) throws -> Item? {
        switch kind {
        case .check:
            return nil
        case .put(let item, let encoded):
            try write(encoded, expiry: StoreItems.expiry(of: item, attribute: definition.timeToLiveAttribute), db)
            return nil
        case .delete:
            // An expired row is removed too: it counts as absent, and the sweep need not find it.
            try StoreItems.delete(table: table, key: location.key, on: db)
            return current
        case .update(let key, let actions):
            var item = current ?? [:]
            item[definition.partitionKey.name] = key.partition
            if let sortKey = definition.sortKey, let sort = key.sort { item[sortKey.name] = sort }
            for action in actions {
                switch action {
                case .set(let name, let value):
                    item[name] = value
                case .remove(let name):
                    item[name] = nil
                case .add(let name, let amount):
                    switch item[name] {
                    case nil: item[name] = .number(amount)
                    case .number(let number): item[name] = .number(number + amount)
                    default:
                        throw StoreError.invalidUpdate("\(table): \(name) is not a number, so it cannot be added to")
                    }
                }
            }
            try write(
                StoreItems.encode(item, table: table),
                expiry: StoreItems.expiry(of: item, attribute: definition.timeToLiveAttribute), db)
            return item
        }
    }

    private func write(_ encoded: String, expiry: Double?, _ db: SQLiteConnection) throws {
        try StoreItems.write(encoded, expiry: expiry, table: table, key: location.key, on: db)
    }
}
