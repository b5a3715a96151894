import AuthKit
import Foundation
import JOSE
import Store
import Synchronization

/// A clock the test sets, and a store on a temporary file with the sign-in tables.
final class TestClock: StoreClock {
    private let seconds: Mutex<Double>
    init(_ now: Double) { seconds = Mutex(now) }
    var now: Double { seconds.withLock { $0 } }
    func set(_ value: Double) { seconds.withLock { $0 = value } }
}

enum SessionFixtures {
    static let start: Double = 1_800_000_000

    static let tables = [
        TableDefinition(name: "Users", partitionKey: .init(name: "id", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(name: "UserIndex", partitionKey: .init(name: "key", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "Passwords", partitionKey: .init(name: "userId", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "EmailTokens", partitionKey: .init(name: "tokenHash", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "AuthCodes", partitionKey: .init(name: "code", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "Sessions", partitionKey: .init(name: "userId", type: .string),
            sortKey: .init(name: "sessionId", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "RefreshTokens", partitionKey: .init(name: "tokenHash", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(name: "Apps", partitionKey: .init(name: "id", type: .string)),
        TableDefinition(
            name: "UsedAssertions", partitionKey: .init(name: "jti", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "RateLimits", partitionKey: .init(name: "key", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "OtpCodes", partitionKey: .init(name: "phone", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "MagicLinks", partitionKey: .init(name: "tokenHash", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "Outbox", partitionKey: .init(name: "recipient", type: .string),
            sortKey: .init(name: "createdAt", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "Factors", partitionKey: .init(name: "userId", type: .string),
            sortKey: .init(name: "entry", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "Passkeys", partitionKey: .init(name: "userId", type: .string),
            sortKey: .init(name: "entry", type: .string), timeToLiveAttribute: "ttl"),
        TableDefinition(
            name: "AuditLog", partitionKey: .init(name: "pk", type: .string),
            sortKey: .init(name: "sk", type: .string), timeToLiveAttribute: "ttl"),
    ]

    /// Sessions as a function runs them on the dev issuer, with fresh signing keys.
    static func sessions(store: SQLiteStore, clock: TestClock) throws -> SessionService {
        SessionService(
            store: store, clock: clock, settings: try SessionSettings(environment: ["ISSUER": "http://127.0.0.1:3000"]),
            keys: try SigningKeySet.generate())
    }

    static func store(clock: TestClock) throws -> SQLiteStore {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("gatehouse-sessions-\(UUID().uuidString)/store.sqlite").path
        return try SQLiteStore(path: path, tables: tables, clock: clock)
    }
}
