import Foundation
import GRDBSQLite
import GatehouseJSON

/// The baseline: the store's own schema and statements through the SQLite C API, prepared
/// once, with the same pragmas and one IMMEDIATE transaction per write.
final class RawSQLite {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw Failure(description: "open \(path)") }
        try exec("PRAGMA journal_mode = WAL")
        try exec("PRAGMA synchronous = NORMAL")
        try exec("PRAGMA wal_autocheckpoint = 16000")  // as the store sets it
        try exec("PRAGMA journal_size_limit = 67108864")
        try exec("PRAGMA busy_timeout = 5000")
        try exec(
            """
            CREATE TABLE items (tbl TEXT NOT NULL, pk NOT NULL, sk NOT NULL, item TEXT NOT NULL, expires REAL,
              PRIMARY KEY (tbl, pk, sk)) WITHOUT ROWID;
            CREATE INDEX items_expiry ON items (expires) WHERE expires IS NOT NULL;
            """
        )
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(db)
    }

    private func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
    }

    private func statement(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] {
            sqlite3_reset(cached)
            sqlite3_clear_bindings(cached)
            return cached
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
        statements[sql] = statement
        return statement
    }

    private func bindKey(_ statement: OpaquePointer, _ index: Int, table: String = "Tokens") {
        sqlite3_bind_text(statement, 1, table, -1, transient)
        sqlite3_bind_text(statement, 2, "k\(index)", -1, transient)
        sqlite3_bind_text(statement, 3, "", -1, transient)
    }

    private func bindLive(_ statement: OpaquePointer, from position: Int32) {
        let now = Date().timeIntervalSince1970
        sqlite3_bind_double(statement, position, now)
        sqlite3_bind_double(statement, position + 1, now - 5 * 365 * 24 * 3600)
    }

    /// The live item's JSON text, as the store reads it (before decoding).
    private func readLive(_ index: Int) throws -> String? {
        let select = try statement(
            "SELECT item FROM items WHERE tbl = ? AND pk = ? AND sk = ? AND (expires IS NULL OR expires > ? OR expires < ?)"
        )
        bindKey(select, index)
        bindLive(select, from: 4)
        guard sqlite3_step(select) == SQLITE_ROW else { return nil }
        return String(cString: sqlite3_column_text(select, 0))
    }

    func put(_ index: Int, payload: JSONValue, ttl: JSONValue) throws {
        try exec("BEGIN IMMEDIATE")
        let insert = try statement("INSERT OR REPLACE INTO items (tbl, pk, sk, item, expires) VALUES (?, ?, ?, ?, ?)")
        bindKey(insert, index)
        let item =
            #"{"app":"demo","id":"k\#(index)","payload":"\#(payload.stringValue!)","ttl":\#(Int(ttl.numberValue!))}"#
        sqlite3_bind_text(insert, 4, item, -1, transient)
        sqlite3_bind_double(insert, 5, ttl.numberValue!)
        guard sqlite3_step(insert) == SQLITE_DONE else { throw Failure(description: "insert") }
        try exec("COMMIT")
    }

    func get(_ index: Int) throws {
        guard try readLive(index) != nil else { throw Failure(description: "missing k\(index)") }
    }

    func consume(_ index: Int) throws {
        try exec("BEGIN IMMEDIATE")
        guard try readLive(index) != nil else { throw Failure(description: "missing k\(index)") }
        let delete = try statement("DELETE FROM items WHERE tbl = ? AND pk = ? AND sk = ?")
        bindKey(delete, index)
        guard sqlite3_step(delete) == SQLITE_DONE else { throw Failure(description: "delete") }
        try exec("COMMIT")
    }

    func add() throws {
        try exec("BEGIN IMMEDIATE")
        let select = try statement("SELECT item FROM items WHERE tbl = 'Counters' AND pk = 1 AND sk = ''")
        let value: Int
        if sqlite3_step(select) == SQLITE_ROW {
            let text = String(cString: sqlite3_column_text(select, 0))
            value = Int(text.split(separator: ":").last!.dropLast())! + 1
        } else {
            value = 1
        }
        let insert = try statement(
            "INSERT OR REPLACE INTO items (tbl, pk, sk, item, expires) VALUES ('Counters', 1, '', ?, NULL)")
        sqlite3_bind_text(insert, 1, #"{"n":1,"value":\#(value)}"#, -1, transient)
        guard sqlite3_step(insert) == SQLITE_DONE else { throw Failure(description: "add") }
        try exec("COMMIT")
    }
}
