import GatehouseJSON
import StoreCore

extension DynamoDBStore {
    /// Creates each of the store's tables that the endpoint does not have yet (on demand
    /// capacity, the key schema, TTL on its attribute): for a local endpoint (moto_server,
    /// DynamoDB Local). A deployed stack's tables come from its template.
    public func createMissingTables() async throws {
        for table in tables.values.sorted(by: { $0.physicalName < $1.physicalName }) {
            try await create(table)
        }
    }

    private func create(_ table: DynamoDBTable) async throws {
        let definition = table.definition
        var keys = [definition.partitionKey]
        if let sort = definition.sortKey { keys.append(sort) }
        let request: [String: JSONValue] = [
            "TableName": .string(table.physicalName), "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": .array(
                keys.map { ["AttributeName": .string($0.name), "AttributeType": .string($0.type.rawValue)] }),
            "KeySchema": .array(
                keys.enumerated().map { index, key in
                    ["AttributeName": .string(key.name), "KeyType": index == 0 ? "HASH" : "RANGE"]
                }),
        ]
        do {
            _ = try await client.call("CreateTable", table: definition.name, request)
        } catch let error as DynamoDBServiceError where error.type == "ResourceInUseException" {
            return
        } catch let error as DynamoDBServiceError {
            throw StoreError.unavailable(
                operation: "CreateTable", table: definition.name, reason: DynamoDBClient.reason(error))
        }
        guard let ttl = definition.timeToLiveAttribute else { return }
        do {
            _ = try await client.call(
                "UpdateTimeToLive", table: definition.name,
                [
                    "TableName": .string(table.physicalName),
                    "TimeToLiveSpecification": ["AttributeName": .string(ttl), "Enabled": true],
                ])
        } catch let error as DynamoDBServiceError {
            throw StoreError.unavailable(
                operation: "UpdateTimeToLive", table: definition.name, reason: DynamoDBClient.reason(error))
        }
    }
}
