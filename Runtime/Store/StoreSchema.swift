#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The store's tables and their versions. Migrations run under the write lock, so processes
/// opening a new file at the same moment agree on one schema.
enum StoreSchema {
    /// The newest schema this code writes.
    static let version = 1

    /// `items` rows that are not expired: arguments `now` then `now - ttlHorizon`.
    static let live = "(expires IS NULL OR expires > ? OR expires < ?)"

    /// Creates or upgrades the schema; when `tables` is given, they replace the definitions
    /// recorded in the file (the template is the source of truth). Returns the recorded ones.
    static func prepare(_ db: SQLiteConnection, registering tables: [TableDefinition]?) throws -> [TableDefinition] {
        try db.inWriteTransaction {
            let found = try db.integer("PRAGMA user_version") ?? 0
            if found > version {
                throw StoreError.unusableFile(
                    path: db.path,
                    reason: "it was written by a newer Gatehouse (schema \(found), this one knows \(version))"
                )
            }
            if found == 0 {
                let others = try db.integer("SELECT count(*) FROM sqlite_master") ?? 0
                guard others == 0 else {
                    throw StoreError.unusableFile(
                        path: db.path,
                        reason: "it is a SQLite database, but not a Gatehouse store"
                    )
                }
            } else {
                let items = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'items'"
                guard try db.integer(items) == 1 else {
                    throw StoreError.unusableFile(
                        path: db.path, reason: "it is not a Gatehouse store"
                    )
                }
            }
            for next in stride(from: found + 1, through: version, by: 1) {
                try migrate(to: next, db)
            }
            if let tables {
                try db.execute("DELETE FROM tables")
                for table in tables {
                    let json = String(decoding: try JSONEncoder().encode(table), as: UTF8.self)
                    try StoreItems.run(
                        "INSERT INTO tables (name, definition) VALUES (?, ?)",
                        binding: [.text(table.name), .text(json)],
                        on: db)
                }
            }
            return try db.texts("SELECT definition FROM tables ORDER BY name").map {
                try JSONDecoder().decode(TableDefinition.self, from: Data($0.utf8))
            }
        }
    }

    private static func migrate(to version: Int, _ db: SQLiteConnection) throws {
        switch version {
        case 1:
            // pk and sk have no declared type, so a string stays text and a number stays a
            // number: keys compare as DynamoDB compares them (numbers numerically, strings by bytes).
            try db.execute(
                """
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
        try db.execute("PRAGMA user_version = \(version)")
    }
}
