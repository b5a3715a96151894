import AWSSigning
import DynamoDBStore
import Foundation
import OutboundHTTP
import Store
import Synchronization
import TestServers
import Testing

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

    /// A store of `backend` with the fixture tables, fresh: a new file, or new tables (their
    /// names prefixed) on the test process's moto_server.
    static func store(
        _ backend: StoreBackend, clock: ManualClock = ManualClock(1_800_000_000)
    ) async throws
        -> any KeyValueStore
    {
        switch backend {
        case .sqlite: return try store(clock: clock)
        case .dynamodb: return try await dynamoDB(clock: clock)
        }
    }

    /// A client that waits for moto_server (Python) on a busy machine.
    static let patientHTTP = OutboundHTTPClient(
        configuration: .patient())

    static func dynamoDB(
        clock: ManualClock, tables definitions: [TableDefinition] = tables, server: MotoServer = .shared
    ) async throws -> DynamoDBStore {
        let prefix = UUID().uuidString.prefix(8).lowercased()
        let store = DynamoDBStore(
            settings: DynamoDBSettings(
                region: "us-east-1", endpoint: try await server.endpoint(),
                credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing")),
            tables: definitions.map { DynamoDBTable(definition: $0, physicalName: "\(prefix)-\($0.name)") },
            clock: clock, http: patientHTTP)
        try await store.createMissingTables()
        return store
    }
}

/// The backends the contract's tests run against.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case dynamodb

    var testDescription: String { rawValue }
}
