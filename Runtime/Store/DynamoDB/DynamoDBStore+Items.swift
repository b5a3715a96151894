import GatehouseJSON
import StoreCore

extension DynamoDBStore {
    public func get(_ table: String, key: ItemKey) async throws -> Item? {
        let table = try self.table(table)
        let answer = try await call(
            "GetItem", table: table, key: key,
            ["TableName": .string(table.physicalName), "Key": try table.keyAttributes(key), "ConsistentRead": true])
        return live(try item(answer, "Item", table: table, operation: "GetItem"), in: table)
    }

    public func put(_ table: String, item: Item, condition: WriteCondition?) async throws {
        let table = try self.table(table)
        let key = try table.key(of: item)
        try Self.checkSize(item, table: table)
        var expression = DynamoDBExpression(table: table, now: clock.now)
        var request: [String: JSONValue] = [
            "TableName": .string(table.physicalName), "Item": AttributeValue.encode(item: item),
        ]
        if let text = expression.condition(condition) { request["ConditionExpression"] = .string(text) }
        expression.attach(to: &request)
        _ = try await call("PutItem", table: table, key: key, request)
    }

    public func delete(_ table: String, key: ItemKey, condition: WriteCondition?) async throws -> Item? {
        let table = try self.table(table)
        var expression = DynamoDBExpression(table: table, now: clock.now)
        var request: [String: JSONValue] = [
            "TableName": .string(table.physicalName), "Key": try table.keyAttributes(key), "ReturnValues": "ALL_OLD",
        ]
        if let text = expression.condition(condition) { request["ConditionExpression"] = .string(text) }
        expression.attach(to: &request)
        let answer = try await call("DeleteItem", table: table, key: key, request)
        return live(try item(answer, "Attributes", table: table, operation: "DeleteItem"), in: table)
    }

    /// An expired item counts as absent, so the update must not build on its attributes: the
    /// update holds only on a live item or none; when it finds an expired one, that item is
    /// deleted (on condition it is still expired) and the update made again.
    public func update(
        _ table: String, key: ItemKey, actions: [UpdateAction], condition: WriteCondition?
    ) async throws -> Item {
        let table = try self.table(table)
        do {
            return try await updateLiveOrAbsent(table, key: key, actions: actions, condition: condition)
        } catch StoreError.conditionFailed where table.definition.timeToLiveAttribute != nil {
            guard try await deleteIfExpired(table, key: key) else {
                throw StoreError.conditionFailed(
                    table: table.definition.name, key: key.description)
            }
            return try await updateLiveOrAbsent(table, key: key, actions: actions, condition: condition)
        }
    }

    private func updateLiveOrAbsent(
        _ table: DynamoDBTable, key: ItemKey, actions: [UpdateAction], condition: WriteCondition?
    ) async throws -> Item {
        var expression = DynamoDBExpression(table: table, now: clock.now)
        var request: [String: JSONValue] = [
            "TableName": .string(table.physicalName), "Key": try table.keyAttributes(key),
            "UpdateExpression": .string(try expression.update(actions)), "ReturnValues": "ALL_NEW",
        ]
        let clauses = [expression.condition(condition), expression.updateGuard(condition)].compactMap { $0 }
        if !clauses.isEmpty { request["ConditionExpression"] = .string(clauses.joined(separator: " AND ")) }
        expression.attach(to: &request)
        let answer: JSONValue
        do {
            answer = try await call("UpdateItem", table: table, key: key, request)
        } catch StoreError.unavailable(_, _, let reason) where reason.contains("ValidationException") {
            throw Self.invalidUpdate(table, actions: actions, reason: reason)
        }
        guard let updated = try item(answer, "Attributes", table: table, operation: "UpdateItem") else {
            throw StoreError.unavailable(
                operation: "UpdateItem", table: table.definition.name, reason: "no attributes in the answer")
        }
        return updated
    }

    /// Deletes the item at `key` if it is there and expired; whether it did.
    func deleteIfExpired(_ table: DynamoDBTable, key: ItemKey) async throws -> Bool {
        var expression = DynamoDBExpression(table: table, now: clock.now)
        guard let expired = expression.expired() else { return false }
        var request: [String: JSONValue] = [
            "TableName": .string(table.physicalName), "Key": try table.keyAttributes(key),
            "ConditionExpression": .string(expired),
        ]
        expression.attach(to: &request)
        do {
            _ = try await call("DeleteItem", table: table, key: key, request)
            return true
        } catch StoreError.conditionFailed {
            return false
        }
    }

    /// DynamoDB refused the update's expression: an `ADD` to an attribute that is not a number
    /// (the one thing the contract's callers can get wrong), or the service's reason.
    private static func invalidUpdate(_ table: DynamoDBTable, actions: [UpdateAction], reason: String) -> StoreError {
        for case .add(let attribute, _) in actions {
            return .invalidUpdate("\(table.definition.name): \(attribute) is not a number, so it cannot be added to")
        }
        return .invalidUpdate("\(table.definition.name): \(reason)")
    }

    static func checkSize(_ item: Item, table: DynamoDBTable) throws(StoreError) {
        let bytes = JSONValue.object(item).serializedBytes.count
        guard bytes <= StoreError.maximumItemBytes else {
            throw .itemTooLarge(table: table.definition.name, bytes: bytes)
        }
    }
}
