import CSQLite
import GatehouseJSON

/// Items as stored: JSON text, plus the expiry their TTL attribute gives.
enum StoreItems {
    /// Items are written with GatehouseJSON's serializer and read with its byte parser: about
    /// 4x faster than a Codable round trip of `JSONValue` in the store benchmark.
    /// The item's text, refused when it is over DynamoDB's 400 KB item limit.
    static func encode(_ item: Item, table: String) throws -> String {
        let encoded = JSONValue.object(item).serialized
        guard encoded.utf8.count <= StoreError.maximumItemBytes else {
            throw StoreError.itemTooLarge(table: table, bytes: encoded.utf8.count)
        }
        return encoded
    }

    /// A stored item, parsed in place from its bytes.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Item {
        guard let item = try JSONValue(parsing: bytes).objectValue else {
            throw StoreError.invalidUpdate("a stored item is not a JSON object")
        }
        return item
    }

    /// DynamoDB's TTL: a top-level Number attribute in epoch seconds; anything else is no TTL.
    static func expiry(of item: Item, attribute: String?) -> Double? {
        guard let attribute, case .number(let seconds) = item[attribute], seconds.isFinite else { return nil }
        return seconds
    }
}

extension SQLiteConnection {
    /// The item at `key`, unless it is absent or expired, read on this connection (inside a
    /// write's transaction, for its condition, or on the reader).
    func readLive(table: String, key: StoreKeys.Values, now: Double) throws -> Item? {
        try StoreItems.readLive(statement(StoreItems.liveItemSQL), on: self, table: table, key: key, now: now)
    }
}

extension StoreItems {
    /// One live item by its full key: the statement `readLive` runs.
    static let liveItemSQL = "SELECT item FROM items WHERE tbl = ? AND pk = ? AND sk = ? AND \(StoreSchema.live)"

    /// Runs a prepared `liveItemSQL` statement through the SQLite C API: values bound without
    /// boxing or copying, the item parsed straight from the column's bytes. The hottest path of
    /// the store.
    static func readLive(
        _ statement: OpaquePointer, on connection: SQLiteConnection, table: String, key: StoreKeys.Values,
        now: Double
    ) throws -> Item? {
        // Spelled out rather than through `step(_:binding:)`: building the array of values and
        // binding through it cost a tenth of a get.
        try withBound(.text(table), to: statement, at: 1) {
            try withBound(key.partition, to: statement, at: 2) {
                try withBound(key.sort, to: statement, at: 3) {
                    defer { release(statement) }
                    gh_sqlite3_bind_double(statement, 4, now)
                    gh_sqlite3_bind_double(statement, 5, now - SQLiteStore.ttlHorizon)
                    switch gh_sqlite3_step(statement) {
                    case SQLITE_ROW: return try decodeRow(statement)
                    case SQLITE_DONE: return nil
                    case let code: throw connection.error(code)
                    }
                }
            }
        }
    }

    /// Puts the item's text at `key` in `table`, replacing any.
    static func write(
        _ encoded: String, expiry: Double?, table: String, key: StoreKeys.Values, on db: SQLiteConnection
    ) throws {
        try run(
            "INSERT OR REPLACE INTO items (tbl, pk, sk, item, expires) VALUES (?, ?, ?, ?, ?)",
            binding: [.text(table), key.partition, key.sort, .text(encoded), expiry.map { .real($0) } ?? .null], on: db)
    }

    /// Deletes the row at `key` in `table`, expired or not.
    static func delete(table: String, key: StoreKeys.Values, on db: SQLiteConnection) throws {
        try run(
            "DELETE FROM items WHERE tbl = ? AND pk = ? AND sk = ?", binding: [.text(table), key.partition, key.sort],
            on: db)
    }

    /// Runs `sql`, a statement without results, with `values` bound.
    static func run(_ sql: String, binding values: [SQLValue], on db: SQLiteConnection) throws {
        _ = try step(db.statement(sql), binding: values, on: db) { () }
    }

    /// The items `sql` selects (its one column is an item's text), with `values` bound.
    static func items(_ sql: String, binding values: [SQLValue], on db: SQLiteConnection) throws -> [Item] {
        let statement = try db.statement(sql)
        var items: [Item] = []
        try withBinding(values[...], to: statement) {
            defer { release(statement) }
            while true {
                switch gh_sqlite3_step(statement) {
                case SQLITE_ROW: items.append(try decodeRow(statement))
                case SQLITE_DONE: return
                case let code: throw db.error(code)
                }
            }
        }
        return items
    }

    /// Binds `values`, steps once, and returns `row()` for a row, nil when there is none.
    private static func step<T>(
        _ statement: OpaquePointer, binding values: [SQLValue], on connection: SQLiteConnection,
        row: () throws -> T
    ) throws -> T? {
        try withBinding(values[...], to: statement) {
            // Reset ends the statement's read (and its lock on the file) at once; clearing drops
            // the bindings of text that is about to go away.
            defer { release(statement) }
            switch gh_sqlite3_step(statement) {
            case SQLITE_ROW: return try row()
            case SQLITE_DONE: return nil
            case let code: throw connection.error(code)
            }
        }
    }

    private static func release(_ statement: OpaquePointer) {
        gh_sqlite3_reset(statement)
        gh_sqlite3_clear_bindings(statement)
    }

    private static func decodeRow(_ statement: OpaquePointer) throws -> Item {
        let count = Int(gh_sqlite3_column_bytes(statement, 0))
        guard let bytes = gh_sqlite3_column_text(statement, 0) else { return [:] }
        return try decode(UnsafeBufferPointer(start: bytes, count: count))
    }

    /// Binds `values` from position `index` on for the duration of `body`. Text is bound in
    /// place (SQLITE_STATIC) with its length, so nothing is copied (three allocations per get
    /// when SQLite copied), and text holding a NUL is bound whole (bound as a C string, a key
    /// "a\0b" would be "a").
    private static func withBinding<T>(
        _ values: ArraySlice<SQLValue>, to statement: OpaquePointer, from index: Int32 = 1,
        _ body: () throws -> T
    ) throws -> T {
        guard let value = values.first else { return try body() }
        return try withBound(value, to: statement, at: index) {
            try withBinding(values.dropFirst(), to: statement, from: index + 1, body)
        }
    }

    /// Binds one value for the duration of `body`, as `withBinding` does.
    private static func withBound<T>(
        _ value: SQLValue, to statement: OpaquePointer, at index: Int32, _ body: () throws -> T
    ) throws -> T {
        switch value {
        case .text(var text):
            return try text.withUTF8 { utf8 in
                if let base = utf8.baseAddress {
                    gh_sqlite3_bind_text(statement, index, base, Int32(utf8.count), nil)  // SQLITE_STATIC
                } else {
                    gh_sqlite3_bind_text(statement, index, "", 0, transient)  // empty, not NULL
                }
                return try body()
            }
        case .integer(let number): gh_sqlite3_bind_int64(statement, index, number)
        case .real(let number): gh_sqlite3_bind_double(statement, index, number)
        case .null: gh_sqlite3_bind_null(statement, index)
        }
        return try body()
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

}
