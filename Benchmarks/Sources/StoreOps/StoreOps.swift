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
        try await benchmark(CommandLine.arguments)
    }

    /// Off the main actor: `main` is on it, and every store call from there would hop to the
    /// global executor and back.
    static func benchmark(_ arguments: [String]) async throws {
        if arguments.count >= 2, arguments[1] == "worker" {
            try await worker(Array(arguments.dropFirst(2)))
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-ops-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = [
            TableDefinition(name: "Tokens", partitionKey: .init(name: "id", type: .string), timeToLiveAttribute: "ttl"),
            TableDefinition(name: "Counters", partitionKey: .init(name: "n", type: .number)),
        ]
        let store = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path, tables: tables)
        let raw = try RawSQLite(path: folder.appendingPathComponent("raw.sqlite").path)
        // Whole epoch seconds, as TTLs are written, and as the raw side writes this one.
        let ttl = JSONValue.number((Date().timeIntervalSince1970 + 3600).rounded())
        let payload = JSONValue.string(String(repeating: "p", count: 100))
        let n = operations

        print("operation         store ops/s     raw ops/s   store/raw")
        func report(_ name: String, _ store: Double, _ raw: Double) {
            print(
                name.padding(toLength: 16, withPad: " ", startingAt: 0)
                    + String(format: "%12.0f  %12.0f  %9.2fx", store, raw, store / raw)
            )
        }

        let (put, rawPut) = try await interleaved(n) { i in
            try await store.put(
                "Tokens", item: ["id": .string("k\(i)"), "app": "demo", "payload": payload, "ttl": ttl], condition: nil)
        } raw: { i in
            try raw.put(i, payload: payload, ttl: ttl)
        }
        report("put", put, rawPut)

        if arguments.count >= 2, arguments[1] == "profile-get" {
            // Gets alone, for `perf record -g`.
            let gets = try await rate(n * 40) { i in
                _ = try await store.get("Tokens", key: ItemKey(.string("k\(i % n)")))
            }
            print("store get \(Int(gets))/s")
            return
        }
        // Every item is read five times over, so the figure is not one cold pass over the file.
        let (get, rawGet) = try await interleaved(n * 5) { i in
            _ = try await store.get("Tokens", key: ItemKey(.string("k\(i % n)")))
        } raw: { i in
            try raw.get(i % n)
        }
        report("get", get, rawGet)

        let (consume, rawConsume) = try await interleaved(n) { i in
            _ = try await store.delete("Tokens", key: ItemKey(.string("k\(i)")), condition: .itemExists)
        } raw: { i in
            try raw.consume(i)
        }
        report("consume", consume, rawConsume)

        let (add, rawAdd) = try await interleaved(n) { _ in
            _ = try await store.update("Counters", key: ItemKey(1), actions: [.add("value", 1)], condition: nil)
        } raw: { _ in
            try raw.add()
        }
        report("atomic add", add, rawAdd)

        try await contended(store: store, tables: tables, folder: folder)
    }

    static let tables = [
        TableDefinition(name: "Tokens", partitionKey: .init(name: "id", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(name: "Counters", partitionKey: .init(name: "n", type: .number)),
    ]

    /// 4 processes on one file: all consuming the same items (each won once), then all adding
    /// to one counter. Reports the total rate across processes.
    static func contended(store: SQLiteStore, tables: [TableDefinition], folder: URL) async throws {
        let processes = 4
        let items = 20_000
        for index in 0..<items {
            try await store.put("Tokens", item: ["id": .string("c\(index)")], condition: nil)
        }
        let consume = try runWorkers(processes, ["consume", store.path, String(items)])
        let wins = consume.outputs.compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }.reduce(0, +)
        let perProcess = 5_000
        let add = try runWorkers(processes, ["add", store.path, String(perProcess)])
        let total = try await store.get("Counters", key: ItemKey(2))?["value"]?.numberValue ?? 0
        print("")
        print("contended, \(processes) processes on one file")
        print(
            String(
                format: "consume         %8.0f attempts/s  (%d items, each won once: %@)",
                Double(items * processes) / consume.seconds, items, wins == items ? "yes" : "NO, \(wins) wins"))
        print(
            String(
                format: "atomic add      %8.0f adds/s      (total %.0f of %d)",
                Double(processes * perProcess) / add.seconds, total, processes * perProcess))
    }

    static func runWorkers(_ count: Int, _ arguments: [String]) throws -> (seconds: Double, outputs: [String]) {
        let clock = ContinuousClock()
        var pipes: [Pipe] = []
        var launched: [Process] = []
        let start = clock.now
        for _ in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
            process.arguments = ["worker"] + arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            pipes.append(pipe)
            launched.append(process)
        }
        let outputs = pipes.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
        for process in launched { process.waitUntilExit() }
        let elapsed = clock.now - start
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, outputs)
    }

    /// `worker consume PATH ITEMS` tries every item and prints its wins; `worker add PATH N` adds N times.
    static func worker(_ arguments: [String]) async throws {
        let store = try SQLiteStore(path: arguments[1])
        let count = Int(arguments[2])!
        var wins = 0
        for index in 0..<count {
            switch arguments[0] {
            case "consume":
                do {
                    if try await store.delete("Tokens", key: ItemKey(.string("c\(index)")), condition: .itemExists)
                        != nil
                    {
                        wins += 1
                    }
                } catch StoreError.conditionFailed {}
            default:
                _ = try await store.update("Counters", key: ItemKey(2), actions: [.add("value", 1)], condition: nil)
            }
        }
        print(wins)
    }

    /// Runs `store` and `raw` over `0..<count` in alternating batches of 250 and returns each
    /// one's operations per second: a noisy machine's drift hits both sides alike, which one
    /// whole pass of each did not (get varied from 0.32× to 0.89× that way).
    static func interleaved(
        _ count: Int, store: @Sendable (Int) async throws -> Void, raw: (Int) throws -> Void
    ) async throws -> (store: Double, raw: Double) {
        let clock = ContinuousClock()
        var times: (store: Duration, raw: Duration) = (.zero, .zero)
        for start in stride(from: 0, to: count, by: 250) {
            let batch = start..<min(start + 250, count)
            times.store += try await clock.measure { for i in batch { try await store(i) } }
            times.raw += try clock.measure { for i in batch { try raw(i) } }
        }
        func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
        return (Double(count) / seconds(times.store), Double(count) / seconds(times.raw))
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
