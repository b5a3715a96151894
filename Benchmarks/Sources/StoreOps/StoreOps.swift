import Foundation
import GRDBSQLite
import GatehouseJSON
import Store

/// Store operations per second, single process, against the same statements run through the
/// raw SQLite C API with the same settings (WAL, synchronous=NORMAL, one IMMEDIATE transaction
/// per write), in one run.
@main
struct StoreOps {
    static let operations = 20_000

    static func main() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-ops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = [
            TableDefinition(name: "Tokens", partitionKey: .init(name: "id", type: .string), timeToLiveAttribute: "ttl"),
            TableDefinition(name: "Counters", partitionKey: .init(name: "n", type: .number)),
        ]
        let store = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path, tables: tables)
        let raw = try RawSQLite(path: folder.appendingPathComponent("raw.sqlite").path)
        let ttl = JSONValue.number(Date().timeIntervalSince1970 + 3600)
        let payload = JSONValue.string(String(repeating: "p", count: 100))
        let n = operations

        print("operation         store ops/s     raw ops/s   store/raw")
        func report(_ name: String, _ store: Double, _ raw: Double) {
            print(
                name.padding(toLength: 16, withPad: " ", startingAt: 0)
                    + String(format: "%12.0f  %12.0f  %9.2fx", store, raw, store / raw)
            )
        }

        let put = try await rate(n) { i in
            try await store.put(
                "Tokens", item: ["id": .string("k\(i)"), "app": "demo", "payload": payload, "ttl": ttl], condition: nil)
        }
        let rawPut = try rate(n) { i in try raw.put(i, payload: payload, ttl: ttl) }
        report("put", put, rawPut)

        let get = try await rate(n) { i in _ = try await store.get("Tokens", key: ItemKey(.string("k\(i)"))) }
        let rawGet = try rate(n) { i in try raw.get(i) }
        report("get", get, rawGet)

        let consume = try await rate(n) { i in
            _ = try await store.delete("Tokens", key: ItemKey(.string("k\(i)")), condition: .itemExists)
        }
        let rawConsume = try rate(n) { i in try raw.consume(i) }
        report("consume", consume, rawConsume)

        let add = try await rate(n) { _ in
            _ = try await store.update("Counters", key: ItemKey(1), actions: [.add("value", 1)], condition: nil)
        }
        let rawAdd = try rate(n) { _ in try raw.add() }
        report("atomic add", add, rawAdd)
    }

    static func rate(_ count: Int, _ body: @Sendable (Int) async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let elapsed = try await clock.measure { for i in 0..<count { try await body(i) } }
        return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    static func rate(_ count: Int, _ body: (Int) throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let elapsed = try clock.measure { for i in 0..<count { try body(i) } }
        return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
