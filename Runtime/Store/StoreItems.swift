import Foundation
import GRDB
import GRDBSQLite
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

extension Database {
    /// The item at `key`, unless it is absent or expired, read on this connection (inside a
    /// write's transaction, for its condition).
    func readLive(table: String, key: StoreKeys.Values, now: Double) throws -> Item? {
        let statement = try cachedStatement(sql: StoreItems.liveItemSQL).sqliteStatement
        return try StoreItems.readLive(statement, on: sqliteConnection, table: table, key: key, now: now)
    }
}

extension StoreItems {
    /// One live item by its full key: the statement `readLive` runs.
    static let liveItemSQL = "SELECT item FROM items WHERE tbl = ? AND pk = ? AND sk = ? AND \(StoreSchema.live)"

    /// Runs a prepared `liveItemSQL` statement through the SQLite C API: values bound without
    /// boxing or copying, the item parsed straight from the column's bytes. The hottest path of
    /// the store.
    static func readLive(
        _ statement: SQLiteStatement, on connection: SQLiteConnection?, table: String, key: StoreKeys.Values,
        now: Double
    ) throws -> Item? {
        // Spelled out rather than through `step(_:binding:)`: building the array of values and
        // binding through it cost a tenth of a get.
        try withBound(.text(table), to: statement, at: 1) {
            try withBound(key.partition, to: statement, at: 2) {
                try withBound(key.sort, to: statement, at: 3) {
                    defer { release(statement) }
                    sqlite3_bind_double(statement, 4, now)
                    sqlite3_bind_double(statement, 5, now - SQLiteStore.ttlHorizon)
                    switch sqlite3_step(statement) {
                    case SQLITE_ROW: return try decodeRow(statement)
                    case SQLITE_DONE: return nil
                    case let code: throw failure(code, connection)
                    }
                }
            }
        }
    }

    /// Puts the item's text at `key` in `table`, replacing any.
    static func write(
        _ encoded: String, expiry: Double?, table: String, key: StoreKeys.Values, on db: Database
    ) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO items (tbl, pk, sk, item, expires) VALUES (?, ?, ?, ?, ?)"
        ).sqliteStatement
        let values = [.text(table), key.partition, key.sort, .text(encoded), expiry?.databaseValue ?? .null]
        _ = try step(statement, binding: values, on: db.sqliteConnection) { () }
    }

    /// Deletes the row at `key` in `table`, expired or not.
    static func delete(table: String, key: StoreKeys.Values, on db: Database) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM items WHERE tbl = ? AND pk = ? AND sk = ?")
            .sqliteStatement
        _ = try step(statement, binding: [.text(table), key.partition, key.sort], on: db.sqliteConnection) { () }
    }

    /// The items `sql` selects (its one column is an item's text), with `values` bound.
    static func items(_ sql: String, binding values: [DatabaseValue], on db: Database) throws -> [Item] {
        let statement = try db.cachedStatement(sql: sql).sqliteStatement
        var items: [Item] = []
        try withBinding(values[...], to: statement) {
            defer { release(statement) }
            while true {
                switch sqlite3_step(statement) {
                case SQLITE_ROW: items.append(try decodeRow(statement))
                case SQLITE_DONE: return
                case let code: throw failure(code, db.sqliteConnection)
                }
            }
        }
        return items
    }

    /// Binds `values`, steps once, and returns `row()` for a row, nil when there is none.
    private static func step<T>(
        _ statement: SQLiteStatement, binding values: [DatabaseValue], on connection: SQLiteConnection?,
        row: () throws -> T
    ) throws -> T? {
        try withBinding(values[...], to: statement) {
            // Reset ends the statement's read (and its lock on the file) at once; clearing drops
            // the bindings of text that is about to go away.
            defer { release(statement) }
            switch sqlite3_step(statement) {
            case SQLITE_ROW: return try row()
            case SQLITE_DONE: return nil
            case let code: throw failure(code, connection)
            }
        }
    }

    private static func release(_ statement: SQLiteStatement) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    private static func decodeRow(_ statement: SQLiteStatement) throws -> Item {
        let count = Int(sqlite3_column_bytes(statement, 0))
        guard let bytes = sqlite3_column_text(statement, 0) else { return [:] }
        return try decode(UnsafeBufferPointer(start: bytes, count: count))
    }

    private static func failure(_ code: Int32, _ connection: SQLiteConnection?) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
    }

    /// Binds `values` from position `index` on for the duration of `body`. Text is bound in
    /// place (SQLITE_STATIC) with its length, so nothing is copied (three allocations per get
    /// when SQLite copied), and text holding a NUL is bound whole: GRDB binds strings as C
    /// strings, so a key "a\0b" would have been "a".
    private static func withBinding<T>(
        _ values: ArraySlice<DatabaseValue>, to statement: SQLiteStatement, from index: Int32 = 1,
        _ body: () throws -> T
    ) throws -> T {
        guard let value = values.first else { return try body() }
        return try withBound(value, to: statement, at: index) {
            try withBinding(values.dropFirst(), to: statement, from: index + 1, body)
        }
    }

    /// Binds one value for the duration of `body`, as `withBinding` does.
    private static func withBound<T>(
        _ value: DatabaseValue, to statement: SQLiteStatement, at index: Int32, _ body: () throws -> T
    ) throws -> T {
        switch value.storage {
        case .string(var text):
            return try text.withUTF8 { utf8 in
                if let base = utf8.baseAddress {
                    sqlite3_bind_text(statement, index, base, Int32(utf8.count), nil)  // SQLITE_STATIC
                } else {
                    sqlite3_bind_text(statement, index, "", 0, transient)  // empty, not NULL
                }
                return try body()
            }
        case .int64(let number): sqlite3_bind_int64(statement, index, number)
        case .double(let number): sqlite3_bind_double(statement, index, number)
        case .blob(let data):
            _ = data.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
        case .null: sqlite3_bind_null(statement, index)
        }
        return try body()
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

}

extension DatabaseValue {
    fileprivate static func text(_ value: String) -> DatabaseValue { value.databaseValue }
}
