import GatehouseJSON
import StoreCore

extension DynamoDBStore {
    /// `TransactWriteItems`: all or nothing; a cancelled transaction names the first operation
    /// whose condition failed. An update that found an expired item (which it may not build on)
    /// has that item deleted, on condition it is still expired, and the transaction made again;
    /// one that the answer shows found a live item is answered at once.
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
        } catch let canceled as Cancellation {
            let failed = prepared[canceled.index]
            guard failed.isUpdate, !canceled.foundLiveItem(in: self, table: failed.table),
                try await deleteIfExpired(failed.table, key: failed.key)
            else { throw canceled.error(prepared) }
            do {
                try await send(try operations.map { try prepare($0) })
            } catch let again as Cancellation {
                throw again.error(prepared)
            }
        }
    }

    /// A transaction cancelled at the operation `index`, with the item that operation found when
    /// the answer carries it.
    struct Cancellation: Error {
        let index: Int
        let foundItem: JSONValue?

        /// Whether the answer shows a live item at the failed operation: then it did not fail for
        /// an expired one, and nothing is to be deleted. No item (none was there, or the server
        /// does not send it: the two cannot be told apart) keeps the delete.
        func foundLiveItem(in store: DynamoDBStore, table: DynamoDBTable) -> Bool {
            guard let foundItem, let item = AttributeValue.decode(item: foundItem) else { return false }
            return store.live(item, in: table) != nil
        }

        /// The store's error, naming the failed operation.
        func error(_ prepared: [PreparedTransactWrite]) -> StoreError {
            .transactionCanceled(
                index: index, table: prepared[index].table.definition.name, key: prepared[index].key.description)
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
            let found = index < error.cancellationItems.count ? error.cancellationItems[index] : nil
            throw Cancellation(index: index, foundItem: found)
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
            // What it found, should it fail: an expired item is deleted and the transaction made
            // again; a live one is an answer (a counter at its cap), with no delete to try.
            if table.definition.timeToLiveAttribute != nil { body["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD" }
        }
        if !clauses.isEmpty { body["ConditionExpression"] = .string(clauses.joined(separator: " AND ")) }
        expression.attach(to: &body)
        return PreparedTransactWrite(table: table, key: key, request: [kind: .object(body)], isUpdate: actions != nil)
    }
}
