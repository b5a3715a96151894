import Foundation
import Store
import Synchronization

/// A clock the test sets by hand.
final class ManualClock: StoreClock {
    private let seconds: Mutex<Double>

    init(_ seconds: Double) { self.seconds = Mutex(seconds) }

    var now: Double { seconds.withLock { $0 } }

    func set(_ value: Double) { seconds.withLock { $0 = value } }
}

enum StoreFixtures {
    static let tables = [
        TableDefinition(
            name: "Tokens", partitionKey: .init(name: "id", type: .string), timeToLiveAttribute: "ttl"
        ),
        TableDefinition(
            name: "Events", partitionKey: .init(name: "user", type: .string),
            sortKey: .init(name: "at", type: .string), timeToLiveAttribute: "ttl"
        ),
        TableDefinition(
            name: "Scores", partitionKey: .init(name: "game", type: .string),
            sortKey: .init(name: "score", type: .number)
        ),
        TableDefinition(name: "Counters", partitionKey: .init(name: "n", type: .number)),
    ]

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatehouse-store-\(UUID().uuidString)/store.sqlite"
        )
        .path
    }

    static func store(
        clock: ManualClock = ManualClock(1_800_000_000), path: String = temporaryPath()
    ) throws
        -> SQLiteStore
    {
        try SQLiteStore(path: path, tables: tables, clock: clock)
    }
}
