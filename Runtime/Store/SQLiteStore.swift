import CSQLite
import GatehouseJSON
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The store in one SQLite file (WAL), shared safely by every process that opens it.
///
/// Every write is one `BEGIN IMMEDIATE` transaction: the condition is checked and the write made
/// under the file's write lock, so conditional writes from several processes never race. A busy
/// file is waited for (5 s), not failed. The schema is versioned (`PRAGMA user_version`).
///
/// Durability: with `.processCrash` (the default, `synchronous=NORMAL` in WAL) a write that
/// returned survives the process being killed; `.powerLoss` (`synchronous=FULL`) also survives
/// the machine losing power, at one fsync per write.
public final class SQLiteStore: KeyValueStore {
    /// What a returned write survives.
    public enum Durability: String, Sendable {
        case processCrash = "normal"
        case powerLoss = "full"
    }

    /// The file's path.
    public let path: String
    /// The connection every write (and every multi-row read) runs on, one at a time.
    private let writer: Mutex<SQLiteConnection>
    /// Single-item reads, on their own connection (see `StoreReader`).
    let reader: StoreReader
    let tables: [String: TableDefinition]
    let clock: any StoreClock

    /// DynamoDB ignores TTL values more than five years in the past.
    static let ttlHorizon: Double = StoreTTL.horizon

    /// Opens (creating when needed) the store at `path`. With `tables` (from the template) their
    /// definitions replace the ones recorded in the file; without, the recorded ones are used, so
    /// a function process needs only the path.
    public init(
        path: String,
        tables: [TableDefinition]? = nil,
        clock: any StoreClock = SystemStoreClock(),
        durability: Durability = .processCrash
    ) throws {
        // A missing library is its own one-line error, not a file that "cannot be opened".
        try SQLiteLibrary.load()
        self.path = path
        self.clock = clock
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let synchronous = durability.rawValue
        let recorded: [TableDefinition]
        do {
            let connection = try SQLiteConnection(path: path)
            // WAL: readers never wait for the writer, and a write is one append and (with
            // synchronous=NORMAL) no fsync. Checkpoint every 16,000 pages (64 MiB of WAL)
            // instead of SQLite's 1,000: each checkpoint copies the pages written since the
            // last one back and syncs both files, and at 1,000 it ran every few hundred writes.
            // The sessions benchmark's store work went from about 3,700 to 4,800 exchanges/s.
            // The WAL file is cut back to 64 MiB after a checkpoint if a long reader let it grow.
            try connection.execute(
                """
                PRAGMA journal_mode = WAL;
                PRAGMA synchronous = \(synchronous);
                PRAGMA wal_autocheckpoint = 16000;
                PRAGMA journal_size_limit = 67108864;
                """)
            recorded = try StoreSchema.prepare(connection, registering: tables)
            writer = Mutex(connection)
            reader = try StoreReader(path: path)
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.unusable(path, error)
        }
        self.tables = Dictionary(recorded.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Opens the store a function process is given: the file at `GATEHOUSE_STORE`, with the
    /// table definitions recorded in it (a function has no template).
    public convenience init(environment: [String: String]) throws {
        guard let path = environment["GATEHOUSE_STORE"], !path.isEmpty else {
            throw StoreError.unusableFile(path: "", reason: "GATEHOUSE_STORE is not set")
        }
        try self.init(path: path)
    }

    /// Loads libsqlite3 now (the first store opened would otherwise): for a function that wants
    /// it loaded before it starts loading another library on a second thread, since the dynamic
    /// loader does one load at a time.
    public static func loadLibrary() throws {
        try SQLiteLibrary.load()
    }

    /// The store file: `GATEHOUSE_STORE` when set, else `.gatehouse/store.sqlite` in the project.
    public static func path(environment: [String: String], projectDirectory: String) -> String {
        if let path = environment["GATEHOUSE_STORE"], !path.isEmpty { return path }
        return "\(projectDirectory)/.gatehouse/store.sqlite"
    }

    static func unusable(_ path: String, _ error: any Error) -> StoreError {
        guard let error = error as? SQLiteError else {
            return .unusableFile(path: path, reason: "\(error)")
        }
        let reason: String
        switch error.primary {
        case SQLITE_NOTADB: reason = "it is not a SQLite database, or it is corrupt"
        case SQLITE_CORRUPT: reason = "it is corrupt"
        case SQLITE_READONLY: reason = "it is read-only"
        case SQLITE_CANTOPEN: reason = "it cannot be opened (missing folder or no permission)"
        case SQLITE_FULL: reason = "the disk is full"
        case SQLITE_BUSY, SQLITE_LOCKED: reason = "it stayed locked by another process for 5 s"
        default: reason = error.message
        }
        return .unusableFile(path: path, reason: reason)
    }

    // MARK: Reads

    public func get(_ table: String, key: ItemKey) async throws -> Item? {
        let definition = try self.definition(table)
        let keyValues = try StoreKeys.values(of: key, in: definition)
        let now = clock.now
        return try storeErrors { try reader.readLive(table: table, key: keyValues, now: now) }
    }

    public func query(
        _ table: String, partition: JSONValue, sortKey: SortKeyCondition?, limit: Int?, ascending: Bool
    ) async throws -> [Item] {
        let definition = try self.definition(table)
        let partitionValue = try StoreKeys.value(partition, for: definition.partitionKey, in: table)
        var sql = "SELECT item FROM items WHERE tbl = ? AND pk = ? AND \(StoreSchema.live)"
        let now = clock.now
        var arguments: [SQLValue] = [.text(table), partitionValue, .real(now), .real(now - Self.ttlHorizon)]
        switch sortKey {
        case nil: break
        case .equals(let value):
            sql += " AND sk = ?"
            arguments += [try sortValue(value, definition)]
        case .beginsWith(let prefix):
            // By bytes, as DynamoDB's begins_with: a count of Swift Characters is not SQLite's
            // count of code points once a combining mark is involved.
            sql += " AND typeof(sk) = 'text' AND substr(CAST(sk AS BLOB), 1, ?) = CAST(? AS BLOB)"
            arguments += [.integer(Int64(prefix.utf8.count)), .text(prefix)]
        case .between(let low, let high):
            sql += " AND sk BETWEEN ? AND ?"
            arguments += [try sortValue(low, definition), try sortValue(high, definition)]
        }
        sql += " ORDER BY sk \(ascending ? "ASC" : "DESC")"
        if let limit { sql += " LIMIT \(max(0, limit))" }
        let statement = sql
        let finalArguments = arguments
        return try await run { db in try StoreItems.items(statement, binding: finalArguments, on: db) }
    }

    public func scan(_ table: String, limit: Int?) async throws -> [Item] {
        _ = try definition(table)
        let now = clock.now
        var sql = "SELECT item FROM items WHERE tbl = ? AND \(StoreSchema.live) ORDER BY pk, sk"
        if let limit { sql += " LIMIT \(max(0, limit))" }
        let statement = sql
        let arguments: [SQLValue] = [.text(table), .real(now), .real(now - Self.ttlHorizon)]
        return try await run { db in try StoreItems.items(statement, binding: arguments, on: db) }
    }

    // MARK: Writes

    public func put(_ table: String, item: Item, condition: WriteCondition?) async throws {
        try await transactWrite([.put(table: table, item: item, condition: condition)], single: true)
    }

    public func delete(_ table: String, key: ItemKey, condition: WriteCondition?) async throws -> Item? {
        try await transactWrite([.delete(table: table, key: key, condition: condition)], single: true).first ?? nil
    }

    public func update(
        _ table: String, key: ItemKey, actions: [UpdateAction], condition: WriteCondition?
    ) async throws
        -> Item
    {
        let results = try await transactWrite(
            [.update(table: table, key: key, actions: actions, condition: condition)], single: true
        )
        guard let item = results.first ?? nil else { throw StoreError.invalidUpdate("the update produced no item") }
        return item
    }

    public func transactWrite(_ operations: [WriteOperation]) async throws {
        guard !operations.isEmpty, operations.count <= 100 else {
            throw StoreError.invalidTransaction("a transaction holds 1 to 100 operations, not \(operations.count)")
        }
        try await transactWrite(operations, single: false)
    }

    /// The items read in one transaction on the writer's connection, so no write commits between
    /// two of them.
    public func transactGet(_ keys: [(table: String, key: ItemKey)]) async throws -> [Item?] {
        guard !keys.isEmpty, keys.count <= 100 else {
            throw StoreError.invalidTransaction("a transaction reads 1 to 100 items, not \(keys.count)")
        }
        var seen = Set<StoreKeys.Location>()
        let located = try keys.map { table, key in
            let location = StoreKeys.Location(
                table: table, key: try StoreKeys.values(of: key, in: try definition(table)))
            guard seen.insert(location).inserted else {
                throw StoreError.invalidTransaction("two reads of the same item (\(table), \(key))")
            }
            return location
        }
        let now = clock.now
        return try await run(writing: true) { db in
            try located.map { try db.readLive(table: $0.table, key: $0.key, now: now) }
        }
    }

    /// Deletes expired items in batches of `batchSize`; returns how many it deleted.
    @discardableResult
    public func sweep(batchSize: Int = 500) async throws -> Int {
        var total = 0
        while true {
            let now = clock.now
            let deleted = try await run(writing: true) { db in
                try StoreItems.run(
                    """
                    DELETE FROM items WHERE (tbl, pk, sk) IN (
                      SELECT tbl, pk, sk FROM items
                      WHERE expires IS NOT NULL AND expires <= ? AND expires >= ? LIMIT ?)
                    """,
                    binding: [.real(now), .real(now - Self.ttlHorizon), .integer(Int64(batchSize))], on: db)
                return db.changes
            }
            total += deleted
            if deleted < batchSize { return total }
        }
    }

    /// The table names this store knows, sorted.
    public var tableNames: [String] { tables.keys.sorted() }

    /// The definitions of the tables this store knows, sorted by name.
    public var tableDefinitions: [TableDefinition] { tableNames.compactMap { tables[$0] } }

    // MARK: Internals

    func definition(_ table: String) throws -> TableDefinition {
        guard let definition = tables[table] else { throw StoreError.unknownTable(table, available: tableNames) }
        return definition
    }

    private func sortValue(_ value: JSONValue, _ definition: TableDefinition) throws -> SQLValue {
        guard let sortKey = definition.sortKey else {
            throw StoreError.invalidUpdate("\(definition.name) has no sort key to query on")
        }
        return try StoreKeys.value(value, for: sortKey, in: definition.name)
    }

    /// Checks every operation, then runs them in one IMMEDIATE transaction; returns, per
    /// operation, the deleted item (delete) or the new item (update).
    @discardableResult
    private func transactWrite(_ operations: [WriteOperation], single: Bool) async throws -> [Item?] {
        let prepared = try operations.map { try PreparedWrite(operation: $0, store: self) }
        var seen = Set<StoreKeys.Location>()
        for write in prepared where !seen.insert(write.location).inserted {
            throw StoreError.invalidTransaction(
                "two operations on the same item (\(write.table), \(write.keyDescription))")
        }
        let now = clock.now
        return try await run(writing: true) { db in
            var results: [Item?] = []
            for (index, write) in prepared.enumerated() {
                // An unconditional put needs nothing of the current item.
                let current =
                    write.needsCurrentItem
                    ? try db.readLive(table: write.table, key: write.location.key, now: now) : nil
                guard write.conditionHolds(on: current) else {
                    throw single
                        ? StoreError.conditionFailed(table: write.table, key: write.keyDescription)
                        : StoreError.transactionCanceled(index: index, table: write.table, key: write.keyDescription)
                }
                results.append(try write.apply(to: db, current: current))
            }
            return results
        }
    }

    /// Runs `body` on the writer connection, in an IMMEDIATE write transaction or (reads) as one
    /// statement, mapping SQLite failures to `StoreError`.
    ///
    /// Synchronously, on the caller's thread: an operation takes tens of microseconds, and
    /// hopping to a queue and back cost more than the work (get went from 13k/s to 22-27k/s in
    /// the store benchmark without GRDB's queue hop). The price: while another process holds the
    /// write lock, the caller's thread waits (up to the 5 s busy timeout). A function process
    /// handles one event at a time, so that is the right trade there.
    private func run<T: Sendable>(
        writing: Bool = false, _ body: (SQLiteConnection) throws -> T
    )
        async throws -> T
    {
        try storeErrors {
            try writer.withLock { db in
                // One SELECT is atomic by itself: no read transaction around it.
                writing ? try db.inWriteTransaction { try body(db) } : try body(db)
            }
        }
    }

    /// Runs `body`, passing `StoreError`s through and turning SQLite's into `unusableFile`.
    private func storeErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.unusable(path, error)
        }
    }
}
