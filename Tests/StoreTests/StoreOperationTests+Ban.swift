import Foundation
import GatehouseJSON
import Store
import StoreCore
import Testing

extension StoreOperationTests {
    /// `itemExistsWithAttributeBelow` (a session's start on a user not banned): it holds for a
    /// live item without the attribute or with a number below the limit; it fails for no item, an
    /// expired one, a number at or over the limit, or a value that is not a number.
    @Test(arguments: StoreBackend.allCases)
    func aLiveItemBelowTheLimitPassesTheBanCheck(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        try await store.put("Tokens", item: ["id": "plain"], condition: nil)
        try await store.put("Tokens", item: ["id": "lapsed", "bannedUntil": 100], condition: nil)
        try await store.put("Tokens", item: ["id": "banned", "bannedUntil": 300], condition: nil)
        try await store.put("Tokens", item: ["id": "odd", "bannedUntil": "300"], condition: nil)
        try await store.put("Tokens", item: ["id": "gone", "ttl": 1_799_999_000], condition: nil)
        func check(_ id: String) async throws -> Bool {
            do {
                try await store.transactWrite([
                    .check(
                        table: "Tokens", key: ItemKey(.string(id)),
                        condition: .itemExistsWithAttributeBelow("bannedUntil", 200)),
                    .put(table: "Tokens", item: ["id": .string("session-\(id)")], condition: nil),
                ])
                return true
            } catch StoreError.transactionCanceled(index: 0, _, _) {
                return try await store.get("Tokens", key: ItemKey(.string("session-\(id)"))) != nil
            }
        }
        #expect(try await check("plain"))
        #expect(try await check("lapsed"))
        #expect(try await !check("banned"))
        #expect(try await !check("odd"))
        #expect(try await !check("gone"))
        #expect(try await !check("nobody"))
    }
}
