import Foundation
import GRDB
import GatehouseJSON

/// Items as stored: JSON text, plus the expiry their TTL attribute gives.
enum StoreItems {
    static func encode(_ item: Item) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(item), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> Item {
        try JSONDecoder().decode(Item.self, from: Data(text.utf8))
    }

    /// DynamoDB's TTL: a top-level Number attribute in epoch seconds; anything else is no TTL.
    static func expiry(of item: Item, attribute: String?) -> Double? {
        guard let attribute, case .number(let seconds) = item[attribute], seconds.isFinite else { return nil }
        return seconds
    }
}

extension Database {
    /// The item at `key`, unless it is absent or expired.
    func readLive(table: String, key: StoreKeys.Values, now: Double) throws -> Item? {
        let statement = try cachedStatement(
            sql: "SELECT item FROM items WHERE tbl = ? AND pk = ? AND sk = ? AND \(StoreSchema.live)"
        )
        return try String.fetchOne(
            statement, arguments: [table, key.partition, key.sort, now, now - SQLiteStore.ttlHorizon]
        ).map(StoreItems.decode)
    }
}
