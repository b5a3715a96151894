import AWSSigning
import DynamoDBStore
import Foundation
import GatehouseJSON
import StoreCore

// `dynamodb-ops ENDPOINT TABLE COUNT`: times COUNT each of put, get (consistent) and
// conditional delete (must exist, old item returned) through the DynamoDB store, one at a
// time on one connection, against ENDPOINT's table TABLE (keyed by `id`, a string). Prints
// {"put": [ms…], "get": […], "delete": […]} on one line; dynamodb.py compares it with boto3.

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: dynamodb-ops ENDPOINT TABLE COUNT\n".utf8))
    exit(2)
}
let store = DynamoDBStore(
    settings: DynamoDBSettings(
        region: "us-east-1", endpoint: arguments[1],
        credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing")),
    tables: [
        DynamoDBTable(
            definition: TableDefinition(name: "Bench", partitionKey: .init(name: "id", type: .string)),
            physicalName: arguments[2])
    ])

func milliseconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

let run = UUID().uuidString.prefix(8)
var put: [Double] = []
var get: [Double] = []
var delete: [Double] = []
// A warm-up call: the connection and the TLS-free handle, as a warm function has them.
_ = try await store.get("Bench", key: ItemKey("warm-up"))
for index in 0..<count {
    let key = "\(run)-\(index)"
    let item: Item = ["id": .string(key), "app": "demo", "userId": "u-1", "ttl": 4_000_000_000]
    put.append(try await milliseconds { try await store.put("Bench", item: item, condition: .itemNotExists) })
    get.append(try await milliseconds { _ = try await store.get("Bench", key: ItemKey(.string(key))) })
    delete.append(
        try await milliseconds { _ = try await store.delete("Bench", key: ItemKey(.string(key)), condition: .itemExists) })
}
let result: JSONValue = [
    "put": .array(put.map(JSONValue.number)), "get": .array(get.map(JSONValue.number)),
    "delete": .array(delete.map(JSONValue.number)),
]
print(result.serialized)
