import GRDB
import GRDBSQLite
import Synchronization

/// A second, read-only connection to the store file for `get`, driven through the SQLite C
/// API under a lock.
///
/// GRDB's `DatabaseQueue` runs every call through a `DispatchQueue.sync`; for a single-row
/// SELECT that hop, with the statement-cache lookup, cost as much as the query (the store's
/// get ran at 0.55x the raw SQLite baseline). WAL lets this connection read while others
/// write, and each SELECT outside a transaction sees every write committed before it starts,
/// from this process or any other.
final class StoreReader: Sendable {
    private struct Connection: ~Copyable {
        let database: OpaquePointer
        let statement: OpaquePointer

        deinit {
            sqlite3_finalize(statement)
            sqlite3_close_v2(database)
        }
    }

    private let connection: Mutex<Connection>

    /// Opens `path` read-only; the file must already be a store (`SQLiteStore` made sure).
    init(path: String, busyTimeoutMilliseconds: Int32 = 5000) throws {
        var database: OpaquePointer?
        let opened = sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let database else {
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(database)
            throw DatabaseError(resultCode: ResultCode(rawValue: opened), message: message)
        }
        sqlite3_busy_timeout(database, busyTimeoutMilliseconds)
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v3(
            database, StoreItems.liveItemSQL, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            let message = String(cString: sqlite3_errmsg(database))
            sqlite3_close_v2(database)
            throw DatabaseError(resultCode: ResultCode(rawValue: prepared), message: message)
        }
        connection = Mutex(Connection(database: database, statement: statement))
    }

    /// The item at `key`, unless it is absent or expired at `now`.
    func readLive(table: String, key: StoreKeys.Values, now: Double) throws -> Item? {
        try connection.withLock { connection in
            try StoreItems.readLive(
                connection.statement, on: connection.database, table: table, key: key, now: now)
        }
    }
}
