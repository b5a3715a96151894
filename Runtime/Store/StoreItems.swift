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

    static func decode(_ text: String) throws -> Item {
        var text = text
        return try text.withUTF8 { try decode($0) }
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
    /// boxing, the item parsed straight from the column's bytes. The hottest path of the store.
    static func readLive(
        _ statement: SQLiteStatement, on connection: SQLiteConnection?, table: String, key: StoreKeys.Values,
        now: Double
    ) throws -> Item? {
        // Reset ends the statement's read (and its lock on the file) at once; every parameter is
        // bound again below, so the old bindings need no clearing.
        defer { sqlite3_reset(statement) }
        bind(.text(table), to: statement, at: 1)
        bind(key.partition, to: statement, at: 2)
        bind(key.sort, to: statement, at: 3)
        sqlite3_bind_double(statement, 4, now)
        sqlite3_bind_double(statement, 5, now - SQLiteStore.ttlHorizon)
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            let count = Int(sqlite3_column_bytes(statement, 0))
            guard let bytes = sqlite3_column_text(statement, 0) else { return [:] }
            return try decode(UnsafeBufferPointer(start: bytes, count: count))
        case SQLITE_DONE:
            return nil
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func bind(_ value: DatabaseValue, to statement: SQLiteStatement, at index: Int32) {
        switch value.storage {
        case .string(let text): sqlite3_bind_text(statement, index, text, -1, transient)
        case .int64(let number): sqlite3_bind_int64(statement, index, number)
        case .double(let number): sqlite3_bind_double(statement, index, number)
        case .blob(let data):
            _ = data.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
        case .null: sqlite3_bind_null(statement, index)
        }
    }
}

extension DatabaseValue {
    fileprivate static func text(_ value: String) -> DatabaseValue { value.databaseValue }
}
