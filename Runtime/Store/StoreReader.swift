import Synchronization

/// A second, read-only connection to the store file for `get`, under a lock of its own.
///
/// A single-row SELECT is the store's hottest path: serialising it behind the writer (or, as
/// GRDB did, a `DispatchQueue.sync`) cost as much as the query. WAL lets this connection read
/// while others write, and each SELECT outside a transaction sees every write committed before
/// it starts, from this process or any other.
final class StoreReader: Sendable {
    private let connection: Mutex<SQLiteConnection>

    /// Opens `path` read-only; the file must already be a store (`SQLiteStore` made sure).
    init(path: String, busyTimeoutMilliseconds: Int32 = 5000) throws {
        let connection = try SQLiteConnection(
            path: path, readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        _ = try connection.statement(StoreItems.liveItemSQL)
        self.connection = Mutex(connection)
    }

    /// The item at `key`, unless it is absent or expired at `now`.
    func readLive(table: String, key: StoreKeys.Values, now: Double) throws -> Item? {
        try connection.withLock { connection in try connection.readLive(table: table, key: key, now: now) }
    }
}
