import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to the store file through the SQLite C API, with its prepared statements
/// kept: what the store needs of SQLite, and no more.
///
/// Not thread-safe: it is only ever used inside the `Mutex` that holds it (`SQLiteStore`'s
/// writer, `StoreReader`), hence `@unchecked Sendable`. It replaced GRDB's `DatabaseQueue`, whose
/// Swift side imports all of Foundation: with it, a packaged function carried Foundation's ICU
/// data (34 MB of a 72 MB binary) and zipped to 28 MB.
final class SQLiteConnection: @unchecked Sendable {
    let database: OpaquePointer
    /// The file's path, for messages.
    let path: String
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating when `readOnly` is false) the file at `path`; SQLite waits up to
    /// `busyTimeoutMilliseconds` for another process's lock rather than failing at once.
    /// A file it creates is readable by its owner only (0600), and so are the WAL and shared
    /// memory files SQLite makes beside it, which take the database file's mode: the store
    /// holds every session of every user.
    init(path: String, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 5000) throws(SQLiteError) {
        // libsqlite3 is loaded on the first open, never by a function that has no store file.
        if let reason = gatehouse_sqlite_load() {
            throw SQLiteError(
                code: SQLITE_CANTOPEN, message: SQLiteLibrary.unavailable(reason: String(cString: reason)))
        }
        if !readOnly {
            // Created here, exclusively, before SQLite would create it with 0644 less the umask.
            let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if created >= 0 { close(created) }
        }
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let opened = gh_sqlite3_open_v2(path, &handle, flags, nil)
        guard opened == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: gh_sqlite3_errmsg($0)) } ?? "out of memory"
            gh_sqlite3_close_v2(handle)
            throw SQLiteError(code: opened, message: message)
        }
        gh_sqlite3_extended_result_codes(handle, 1)
        gh_sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        database = handle
        self.path = path
    }

    deinit {
        for statement in statements.values { gh_sqlite3_finalize(statement) }
        gh_sqlite3_close_v2(database)
    }

    /// The prepared statement for `sql`, prepared once per connection.
    func statement(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let prepared = gh_sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw error(prepared) }
        statements[sql] = statement
        return statement
    }

    /// Runs `sql`, which may hold several statements and no parameters (schema, pragmas).
    func execute(_ sql: String) throws(SQLiteError) {
        let status = gh_sqlite3_exec(database, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// The first column of the first row of `sql` as an integer (nil without a row).
    func integer(_ sql: String) throws(SQLiteError) -> Int? {
        let statement = try self.statement(sql)
        defer { gh_sqlite3_reset(statement) }
        switch gh_sqlite3_step(statement) {
        case SQLITE_ROW: return Int(gh_sqlite3_column_int64(statement, 0))
        case SQLITE_DONE: return nil
        case let code: throw error(code)
        }
    }

    /// The first column of every row of `sql` as text.
    func texts(_ sql: String) throws(SQLiteError) -> [String] {
        let statement = try self.statement(sql)
        defer { gh_sqlite3_reset(statement) }
        var texts: [String] = []
        while true {
            switch gh_sqlite3_step(statement) {
            case SQLITE_ROW: texts.append(gh_sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
            case SQLITE_DONE: return texts
            case let code: throw error(code)
            }
        }
    }

    /// Rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(gh_sqlite3_changes(database)) }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    var isInsideTransaction: Bool { gh_sqlite3_get_autocommit(database) == 0 }

    /// `code` with the connection's message.
    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: gh_sqlite3_errmsg(database)))
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction (the file's write lock taken first, so a
    /// conditional write's check and write cannot interleave with another process's), committing
    /// when it returns and rolling back when it throws.
    func inWriteTransaction<T>(_ body: () throws -> T) throws -> T {
        try step(statement("BEGIN IMMEDIATE"))
        do {
            let result = try body()
            try step(statement("COMMIT"))
            return result
        } catch {
            if isInsideTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Steps a statement without results once, then resets it.
    private func step(_ statement: OpaquePointer) throws(SQLiteError) {
        defer { gh_sqlite3_reset(statement) }
        let status = gh_sqlite3_step(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else { throw error(status) }
    }
}

/// A failure SQLite reported: its (extended) result code and message.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    /// The primary result code (`SQLITE_BUSY` for `SQLITE_BUSY_SNAPSHOT`, ...).
    var primary: Int32 { code & 0xFF }

    var description: String { "SQLite error \(code): \(message)" }
}

/// A value bound to a statement: what the store's columns hold.
enum SQLValue: Hashable, Sendable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case null
}
