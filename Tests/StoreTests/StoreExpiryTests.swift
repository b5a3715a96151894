import Foundation
import GatehouseJSON
import Store
import Testing

/// TTL as DynamoDB defines the attribute, stricter on reads: expired from its second on.
struct StoreExpiryTests {
    let start = 1_800_000_000.0

    @Test(arguments: StoreBackend.allCases)
    func anItemExpiresAtItsTTLSecondExactly(_ backend: StoreBackend) async throws {
        let clock = ManualClock(start)
        let store = try await StoreFixtures.store(backend, clock: clock)
        let ttl = start + 60
        try await store.put("Events", item: ["user": "u", "at": "a", "ttl": .number(ttl)], condition: nil)

        clock.set(ttl - 1)
        #expect(try await store.get("Events", key: ItemKey("u", "a")) != nil)
        #expect(try await store.query("Events", partition: "u", sortKey: nil, limit: nil, ascending: true).count == 1)
        #expect(try await store.scan("Events", limit: nil).count == 1)

        clock.set(ttl)
        #expect(try await store.get("Events", key: ItemKey("u", "a")) == nil)
        #expect(try await store.query("Events", partition: "u", sortKey: nil, limit: nil, ascending: true).isEmpty)
        #expect(try await store.scan("Events", limit: nil).isEmpty)
        await #expect(throws: StoreError.conditionFailed(table: "Events", key: "u / a")) {
            try await store.put("Events", item: ["user": "u", "at": "a"], condition: .itemExists)
        }
        #expect(
            try await store.delete("Events", key: ItemKey("u", "a"), condition: nil) == nil,
            "an expired item is never returned")
    }

    @Test(arguments: StoreBackend.allCases)
    func mustNotExistSucceedsOnAnExpiredKey(_ backend: StoreBackend) async throws {
        let clock = ManualClock(start)
        let store = try await StoreFixtures.store(backend, clock: clock)
        try await store.put("Tokens", item: ["id": "code", "ttl": .number(start + 1)], condition: .itemNotExists)
        clock.set(start + 1)
        try await store.put("Tokens", item: ["id": "code", "v": 2], condition: .itemNotExists)
        #expect(try await store.get("Tokens", key: ItemKey("code")) == ["id": "code", "v": 2])
        let counted = try await store.update("Tokens", key: ItemKey("fresh"), actions: [.add("n", 1)], condition: nil)
        #expect(counted["n"] == 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func aTTLThatIsNotANumberOrTooOldIsIgnored(_ backend: StoreBackend) async throws {
        let clock = ManualClock(start)
        let store = try await StoreFixtures.store(backend, clock: clock)
        try await store.put("Tokens", item: ["id": "text", "ttl": .string("1")], condition: nil)
        try await store.put(
            "Tokens", item: ["id": "ancient", "ttl": .number(start - 6 * 365 * 24 * 3600)], condition: nil)
        try await store.put("Tokens", item: ["id": "recent", "ttl": .number(start - 10)], condition: nil)
        #expect(try await store.get("Tokens", key: ItemKey("text")) != nil)
        #expect(try await store.get("Tokens", key: ItemKey("ancient")) != nil, "DynamoDB ignores TTLs over 5 years old")
        #expect(try await store.get("Tokens", key: ItemKey("recent")) == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func aTableWithoutTTLNeverExpiresItems(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend, clock: ManualClock(start))
        try await store.put("Scores", item: ["game": "g", "score": 1, "ttl": 5], condition: nil)
        #expect(try await store.get("Scores", key: ItemKey("g", 1)) != nil)
    }

    @Test func theSweepDeletesOnlyExpiredItemsInBatches() async throws {
        let clock = ManualClock(start)
        let store = try StoreFixtures.store(clock: clock)
        for index in 0..<5 {
            try await store.put(
                "Tokens", item: ["id": .string("old\(index)"), "ttl": .number(start + 10)], condition: nil)
        }
        try await store.put("Tokens", item: ["id": "later", "ttl": .number(start + 100)], condition: nil)
        try await store.put("Tokens", item: ["id": "forever"], condition: nil)
        #expect(try await store.sweep(batchSize: 2) == 0)
        clock.set(start + 10)
        #expect(try await store.sweep(batchSize: 2) == 5)
        #expect(try await store.sweep(batchSize: 2) == 0)
        clock.set(start)
        #expect(
            try await store.scan("Tokens", limit: nil).compactMap { $0["id"]?.stringValue } == ["forever", "later"],
            "swept rows are gone even for an earlier clock")
    }
}
