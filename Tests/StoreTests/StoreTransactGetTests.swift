import Foundation
import GatehouseJSON
import Store
import Testing

/// `transactGet`: several items of several tables in one round trip, each as `get` would
/// answer it, and a bad request refused whole, on both backends.
struct StoreTransactGetTests {
    let start = 1_800_000_000.0

    @Test(arguments: StoreBackend.allCases)
    func readsEachItemInOrderWithNilForAbsentAndExpired(_ backend: StoreBackend) async throws {
        let clock = ManualClock(start)
        let store = try await StoreFixtures.store(backend, clock: clock)
        try await store.put("Tokens", item: ["id": "live", "v": 1], condition: nil)
        try await store.put("Tokens", item: ["id": "old", "ttl": .number(start - 1)], condition: nil)
        try await store.put("Events", item: ["user": "u", "at": "a", "n": 2], condition: nil)
        let items = try await store.transactGet([
            ("Events", ItemKey("u", "a")), ("Tokens", ItemKey("missing")), ("Tokens", ItemKey("live")),
            ("Tokens", ItemKey("old")),
        ])
        #expect(items == [["user": "u", "at": "a", "n": 2], nil, ["id": "live", "v": 1], nil])
    }

    @Test(arguments: StoreBackend.allCases)
    func aRepeatedItemOrAnEmptyListIsRefusedByName(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend, clock: ManualClock(start))
        await #expect(throws: StoreError.invalidTransaction("two reads of the same item (Tokens, a)")) {
            try await store.transactGet([("Tokens", ItemKey("a")), ("Tokens", ItemKey("a"))])
        }
        await #expect(throws: StoreError.invalidTransaction("a transaction reads 1 to 100 items, not 0")) {
            try await store.transactGet([])
        }
        await #expect(throws: StoreError.invalidTransaction("a transaction reads 1 to 100 items, not 101")) {
            try await store.transactGet((0...100).map { ("Tokens", ItemKey(.string("k\($0)"))) })
        }
        // Keys whose text forms meet are still two items.
        try await store.put("Events", item: ["user": "a / b", "at": "c", "n": 1], condition: nil)
        try await store.put("Events", item: ["user": "a", "at": "b / c", "n": 2], condition: nil)
        let both = try await store.transactGet([("Events", ItemKey("a / b", "c")), ("Events", ItemKey("a", "b / c"))])
        #expect(both.map { $0?["n"] } == [1, 2])
    }
}
