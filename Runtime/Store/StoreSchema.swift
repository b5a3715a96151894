import Foundation
import GRDB

/// The store's tables and their versions. Migrations run under the write lock, so processes
/// opening a new file at the same moment agree on one schema.
enum StoreSchema {
    /// The newest schema this code writes.
    static let version = 1

    /// `items` rows that are not expired: arguments `now` then `now - ttlHorizon`.
    static let live = "(expires IS NULL OR expires > ? OR expires < ?)"

    /// Creates or upgrades the schema; when `tables` is given, they replace the definitions
    /// recorded in the file (the template is the source of truth). Returns the recorded ones.
    static func prepare(_ db: Database, registering tables: [TableDefinition]?) throws -> [TableDefinition] {
        var recorded: [TableDefinition] = []
        try db.inTransaction(.immediate) {
            let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            if found > version {
                throw StoreError.unusableFile(
                    path: db.configuration.label ?? "the store",
                    reason: "it was written by a newer Gatehouse (schema \(found), this one knows \(version))"
                )
            }
            if found == 0 {
                let others = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                guard others == 0 else {
                    throw StoreError.unusableFile(
                        path: db.configuration.label ?? "the store",
                        reason: "it is a SQLite database, but not a Gatehouse store"
                    )
                }
            } else {
                guard try db.tableExists("items") else {
                    throw StoreError.unusableFile(
                        path: db.configuration.label ?? "the store", reason: "it is not a Gatehouse store"
                    )
                }
            }
            for next in stride(from: found + 1, through: version, by: 1) {
                try migrate(to: next, db)
            }
            if let tables {
                try db.execute(sql: "DELETE FROM tables")
                for table in tables {
                    let json = String(decoding: try JSONEncoder().encode(table), as: UTF8.self)
                    try db.execute(
                        sql: "INSERT INTO tables (name, definition) VALUES (?, ?)", arguments: [table.name, json])
                }
            }
            recorded = try String.fetchAll(db, sql: "SELECT definition FROM tables ORDER BY name").map {
                try JSONDecoder().decode(TableDefinition.self, from: Data($0.utf8))
            }
            return .commit
        }
        return recorded
    }

    private static func migrate(to version: Int, _ db: Database) throws {
        switch version {
        case 1:
            // pk and sk have no declared type, so a string stays text and a number stays a
            // number: keys compare as DynamoDB compares them (numbers numerically, strings by bytes).
            try db.execute(
                sql: """
                    CREATE TABLE items (
                      tbl TEXT NOT NULL,
                      pk NOT NULL,
                      sk NOT NULL,
                      item TEXT NOT NULL,
                      expires REAL,
                      PRIMARY KEY (tbl, pk, sk)
                    ) WITHOUT ROWID;
                    CREATE INDEX items_expiry ON items (expires) WHERE expires IS NOT NULL;
                    CREATE TABLE tables (name TEXT PRIMARY KEY, definition TEXT NOT NULL);
                    """
            )
        default:
            break
        }
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }
}
