import GatehouseJSON
import StoreCore

extension DynamoDBStore {
    public func query(
        _ table: String, partition: JSONValue, sortKey: SortKeyCondition?, limit: Int?, ascending: Bool
    ) async throws -> [Item] {
        let table = try self.table(table)
        var expression = DynamoDBExpression(table: table, now: clock.now)
        var keyCondition = "\(expression.name(table.definition.partitionKey.name)) = \(expression.value(partition))"
        if let sortKey {
            guard let name = table.definition.sortKey?.name else {
                throw StoreError.invalidTable(
                    place: table.definition.name, reason: "has no sort key to query by")
            }
            let attribute = expression.name(name)
            switch sortKey {
            case .equals(let value): keyCondition += " AND \(attribute) = \(expression.value(value))"
            case .beginsWith(let prefix):
                keyCondition += " AND begins_with(\(attribute), \(expression.value(.string(prefix))))"
            case .between(let low, let high):
                keyCondition += " AND \(attribute) BETWEEN \(expression.value(low)) AND \(expression.value(high))"
            }
        }
        var request: [String: JSONValue] = [
            "TableName": .string(table.physicalName), "KeyConditionExpression": .string(keyCondition),
            "ScanIndexForward": .bool(ascending), "ConsistentRead": true,
        ]
        expression.attach(to: &request)
        return try await pages("Query", table: table, request: request, limit: limit)
    }

    /// `TransactGetItems`: the items at one moment, in one round trip. A read canceled by a
    /// write in flight on one of them is tried again by the client, as any conflict.
    public func transactGet(_ keys: [(table: String, key: ItemKey)]) async throws -> [Item?] {
        guard !keys.isEmpty, keys.count <= 100 else {
            throw StoreError.invalidTransaction("a transaction reads 1 to 100 items, not \(keys.count)")
        }
        var seen = Set<[JSONValue]>()
        let tables = try keys.map { name, key in
            guard seen.insert([.string(name), key.partition, key.sort ?? .null]).inserted else {
                throw StoreError.invalidTransaction("two reads of the same item (\(name), \(key))")
            }
            return try table(name)
        }
        let gets: [JSONValue] = try zip(tables, keys).map { table, key in
            ["Get": ["TableName": .string(table.physicalName), "Key": try table.keyAttributes(key.key)]]
        }
        let answer = try await call("TransactGetItems", table: tables[0], key: nil, ["TransactItems": .array(gets)])
        let responses = answer["Responses"]?.arrayValue ?? []
        guard responses.count == keys.count else {
            throw StoreError.unavailable(
                operation: "TransactGetItems", table: tables[0].definition.name,
                reason: "\(responses.count) responses to \(keys.count) reads")
        }
        return try zip(tables, responses).map { table, response in
            live(try item(response, "Item", table: table, operation: "TransactGetItems"), in: table)
        }
    }

    /// Every live item, in key order (DynamoDB scans in hash order: the whole table is read and
    /// sorted, which suits the tooling scans are for).
    public func scan(_ table: String, limit: Int?) async throws -> [Item] {
        let table = try self.table(table)
        let request: [String: JSONValue] = ["TableName": .string(table.physicalName), "ConsistentRead": true]
        let items = try await pages("Scan", table: table, request: request, limit: nil)
        let sorted = try items.sorted { try Self.keyOrder(table.key(of: $0), table.key(of: $1)) }
        return limit.map { Array(sorted.prefix(max(0, $0))) } ?? sorted
    }

    /// The live items of every page, up to `limit`: expired ones are dropped as they come, and
    /// the next page is read while fewer than `limit` have been found.
    private func pages(
        _ operation: String, table: DynamoDBTable, request: [String: JSONValue], limit: Int?
    ) async throws -> [Item] {
        var items: [Item] = []
        var request = request
        while true {
            if let limit {
                guard items.count < limit else { break }
                request["Limit"] = .number(Double(limit - items.count))
            }
            let answer = try await call(operation, table: table, key: nil, request)
            for attributes in answer["Items"]?.arrayValue ?? [] {
                guard let item = AttributeValue.decode(item: attributes) else {
                    throw StoreError.unavailable(
                        operation: operation, table: table.definition.name,
                        reason: "an attribute of a type Gatehouse never writes")
                }
                if let kept = live(item, in: table) { items.append(kept) }
            }
            guard let next = answer["LastEvaluatedKey"], next != .null else { break }
            request["ExclusiveStartKey"] = next
        }
        return limit.map { Array(items.prefix($0)) } ?? items
    }

    /// Keys in the SQLite file's order: partition then sort, numbers by value, strings by bytes.
    static func keyOrder(_ left: ItemKey, _ right: ItemKey) -> Bool {
        if left.partition != right.partition { return valueOrder(left.partition, right.partition) }
        guard let leftSort = left.sort, let rightSort = right.sort else { return false }
        return valueOrder(leftSort, rightSort)
    }

    private static func valueOrder(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.number(let a), .number(let b)): a < b
        case (.string(let a), .string(let b)): Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        default: false
        }
    }
}
