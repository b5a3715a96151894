import GatehouseJSON
import StoreCore

extension DynamoDBStore {
    /// `TransactWriteItems`: all or nothing; a cancelled transaction names the first operation
    /// whose condition failed. An update that found an expired item (which it may not build on)
    /// has that item deleted, on condition it is still expired, and the transaction made again.
    public func transactWrite(_ operations: [WriteOperation]) async throws {
        guard !operations.isEmpty, operations.count <= 100 else {
            throw StoreError.invalidTransaction("a transaction holds 1 to 100 operations, not \(operations.count)")
        }
        let prepared = try operations.map { try prepare($0) }
        var seen = Set<String>()
        for write in prepared where !seen.insert("\(write.table.definition.name)\u{0}\(write.key)").inserted {
            throw StoreError.invalidTransaction(
                "two operations on the same item (\(write.table.definition.name), \(write.key))")
        }
        do {
            try await send(prepared)
        } catch let StoreError.transactionCanceled(index, _, _) where prepared[index].isUpdate {
            guard try await deleteIfExpired(prepared[index].table, key: prepared[index].key) else {
                throw StoreError.transactionCanceled(
                    index: index, table: prepared[index].table.definition.name, key: prepared[index].key.description)
            }
            try await send(try operations.map { try prepare($0) })
        }
    }

    /// One operation as `TransactItems` takes it.
    struct PreparedTransactWrite {
        let table: DynamoDBTable
        let key: ItemKey
        let request: JSONValue
        let isUpdate: Bool
    }

    private func send(_ prepared: [PreparedTransactWrite]) async throws {
        let first = prepared[0].table
        do {
            _ = try await client.call(
                "TransactWriteItems", table: first.definition.name, ["TransactItems": .array(prepared.map(\.request))])
        } catch let error as DynamoDBServiceError where error.type == "TransactionCanceledException" {
            guard let index = error.cancellationCodes.firstIndex(of: "ConditionalCheckFailed") else {
                throw StoreError.unavailable(
                    operation: "TransactWriteItems", table: first.definition.name, reason: DynamoDBClient.reason(error))
            }
            throw StoreError.transactionCanceled(
                index: index, table: prepared[index].table.definition.name, key: prepared[index].key.description)
        } catch let error as DynamoDBServiceError {
            throw StoreError.unavailable(
                operation: "TransactWriteItems", table: first.definition.name, reason: DynamoDBClient.reason(error))
        }
    }

    private func prepare(_ operation: WriteOperation) throws -> PreparedTransactWrite {
        switch operation {
        case .put(let name, let item, let condition):
            let table = try self.table(name)
            try Self.checkSize(item, table: table)
            var body: [String: JSONValue] = ["Item": AttributeValue.encode(item: item)]
            return try prepared("Put", table, try table.key(of: item), &body, condition, nil)
        case .delete(let name, let key, let condition):
            var body: [String: JSONValue] = [:]
            return try prepared("Delete", try self.table(name), key, &body, condition, nil)
        case .update(let name, let key, let actions, let condition):
            var body: [String: JSONValue] = [:]
            return try prepared("Update", try self.table(name), key, &body, condition, actions)
        case .check(let name, let key, let condition):
            var body: [String: JSONValue] = [:]
            return try prepared("ConditionCheck", try self.table(name), key, &body, condition, nil)
        }
    }

    private func prepared(
        _ kind: String, _ table: DynamoDBTable, _ key: ItemKey, _ body: inout [String: JSONValue],
        _ condition: WriteCondition?, _ actions: [UpdateAction]?
    ) throws -> PreparedTransactWrite {
        var expression = DynamoDBExpression(table: table, now: clock.now)
        body["TableName"] = .string(table.physicalName)
        if kind != "Put" { body["Key"] = try table.keyAttributes(key) }
        var clauses = [expression.condition(condition)].compactMap { $0 }
        if let actions {
            body["UpdateExpression"] = .string(try expression.update(actions))
            if let guardClause = expression.updateGuard(condition) { clauses.append(guardClause) }
        }
        if !clauses.isEmpty { body["ConditionExpression"] = .string(clauses.joined(separator: " AND ")) }
        expression.attach(to: &body)
        return PreparedTransactWrite(table: table, key: key, request: [kind: .object(body)], isUpdate: actions != nil)
    }
}
