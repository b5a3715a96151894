import Foundation
import GatehouseJSON
import Store
import Testing

struct StoreOperationTests {
    @Test(arguments: StoreBackend.allCases)
    func putThenGetRoundTripsTheItem(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        let item: Item = [
            "id": "t1", "email": "a@example.com", "n": 1.5, "tags": ["x", nil, true], "nested": ["a": 1],
        ]
        try await store.put("Tokens", item: item, condition: nil)
        #expect(try await store.get("Tokens", key: ItemKey("t1")) == item)
        #expect(try await store.get("Tokens", key: ItemKey("other")) == nil)
        try await store.put("Tokens", item: ["id": "t1", "email": "b@example.com"], condition: nil)
        #expect(try await store.get("Tokens", key: ItemKey("t1")) == ["id": "t1", "email": "b@example.com"])
    }

    /// get reads on its own connection: what another connection to the file (another process,
    /// or the emulator) has committed is there on the next get, and a delete is gone from it.
    @Test func getSeesWhatAnotherConnectionCommitted() async throws {
        let path = StoreFixtures.temporaryPath()
        let writer = try StoreFixtures.store(path: path)
        let reader = try StoreFixtures.store(path: path)
        #expect(try await reader.get("Tokens", key: ItemKey("shared")) == nil)
        try await writer.put("Tokens", item: ["id": "shared", "v": 1], condition: nil)
        #expect(try await reader.get("Tokens", key: ItemKey("shared")) == ["id": "shared", "v": 1])
        _ = try await writer.update("Tokens", key: ItemKey("shared"), actions: [.add("v", 1)], condition: nil)
        #expect(try await reader.get("Tokens", key: ItemKey("shared")) == ["id": "shared", "v": 2])
        _ = try await writer.delete("Tokens", key: ItemKey("shared"), condition: nil)
        #expect(try await reader.get("Tokens", key: ItemKey("shared")) == nil)
    }

    /// Keys are bound with their length: one holding a NUL is its own key, not its prefix.
    @Test(arguments: StoreBackend.allCases)
    func aKeyHoldingANULIsNotItsPrefix(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        try await store.put("Tokens", item: ["id": "a", "v": 1], condition: nil)
        try await store.put("Tokens", item: ["id": "a\u{0}b", "v": 2], condition: .itemNotExists)
        #expect(try await store.get("Tokens", key: ItemKey("a")) == ["id": "a", "v": 1])
        #expect(try await store.get("Tokens", key: ItemKey("a\u{0}b")) == ["id": "a\u{0}b", "v": 2])
        #expect(try await store.delete("Tokens", key: ItemKey("a\u{0}b"), condition: nil) == ["id": "a\u{0}b", "v": 2])
        #expect(try await store.get("Tokens", key: ItemKey("a")) == ["id": "a", "v": 1])
    }

    @Test(arguments: StoreBackend.allCases)
    func aFailedConditionIsATypedErrorAndWritesNothing(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        try await store.put("Tokens", item: ["id": "t1", "v": 1], condition: .itemNotExists)
        await #expect(throws: StoreError.conditionFailed(table: "Tokens", key: "t1")) {
            try await store.put("Tokens", item: ["id": "t1", "v": 2], condition: .itemNotExists)
        }
        await #expect(throws: StoreError.conditionFailed(table: "Tokens", key: "t2")) {
            try await store.put("Tokens", item: ["id": "t2"], condition: .itemExists)
        }
        await #expect(throws: StoreError.conditionFailed(table: "Tokens", key: "t1")) {
            try await store.put("Tokens", item: ["id": "t1", "v": 3], condition: .attributeEquals("v", 2))
        }
        #expect(try await store.get("Tokens", key: ItemKey("t1")) == ["id": "t1", "v": 1])
        #expect(try await store.get("Tokens", key: ItemKey("t2")) == nil)
        try await store.put("Tokens", item: ["id": "t1", "v": 4], condition: .attributeEquals("v", 1))
        #expect(try await store.get("Tokens", key: ItemKey("t1"))?["v"] == 4)
    }

    @Test(arguments: StoreBackend.allCases)
    func deleteReturnsWhatItDeletedOnce(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        try await store.put("Tokens", item: ["id": "code", "app": "demo"], condition: nil)
        await #expect(throws: StoreError.conditionFailed(table: "Tokens", key: "code")) {
            try await store.delete("Tokens", key: ItemKey("code"), condition: .attributeEquals("app", "other"))
        }
        #expect(
            try await store.delete("Tokens", key: ItemKey("code"), condition: .itemExists) == [
                "id": "code", "app": "demo",
            ])
        #expect(try await store.delete("Tokens", key: ItemKey("code"), condition: nil) == nil)
        await #expect(throws: StoreError.conditionFailed(table: "Tokens", key: "code")) {
            try await store.delete("Tokens", key: ItemKey("code"), condition: .itemExists)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func updateAddsSetsRemovesAndCreates(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        let created = try await store.update(
            "Events", key: ItemKey("u1", "2026-11-21"), actions: [.add("count", 1), .set("kind", "login")],
            condition: nil
        )
        #expect(created == ["user": "u1", "at": "2026-11-21", "count": 1, "kind": "login"])
        let updated = try await store.update(
            "Events", key: ItemKey("u1", "2026-11-21"), actions: [.add("count", 2.5), .remove("kind")],
            condition: .itemExists
        )
        #expect(updated == ["user": "u1", "at": "2026-11-21", "count": 3.5])
        #expect(try await store.get("Events", key: ItemKey("u1", "2026-11-21")) == updated)
        await #expect(throws: StoreError.invalidUpdate("Events: count is not a number, so it cannot be added to")) {
            _ = try await store.update(
                "Events", key: ItemKey("u1", "2026-11-21"), actions: [.set("count", "x"), .add("count", 1)],
                condition: nil)
        }
        await #expect(throws: StoreError.invalidUpdate("Events: the key attribute user cannot be updated")) {
            _ = try await store.update(
                "Events", key: ItemKey("u1", "2026-11-21"), actions: [.set("user", "u2")], condition: nil)
        }
        await #expect(throws: StoreError.conditionFailed(table: "Events", key: "u2 / x")) {
            _ = try await store.update(
                "Events", key: ItemKey("u2", "x"), actions: [.add("count", 1)], condition: .itemExists)
        }
        #expect(
            try await store.get("Events", key: ItemKey("u1", "2026-11-21")) == updated,
            "a failed update changes nothing")
    }

    @Test(arguments: StoreBackend.allCases)
    func queryBySortKeyInEitherOrder(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        for day in ["2026-11-01", "2026-11-15", "2026-12-01", "2027-01-01"] {
            try await store.put("Events", item: ["user": "u1", "at": .string(day)], condition: nil)
        }
        try await store.put("Events", item: ["user": "u2", "at": "2026-11-02"], condition: nil)
        func days(_ items: [Item]) -> [String] { items.compactMap { $0["at"]?.stringValue } }
        #expect(
            days(try await store.query("Events", partition: "u1", sortKey: nil, limit: nil, ascending: true)) == [
                "2026-11-01", "2026-11-15", "2026-12-01", "2027-01-01",
            ])
        #expect(
            days(
                try await store.query(
                    "Events", partition: "u1", sortKey: .beginsWith("2026-11"), limit: nil, ascending: true)) == [
                    "2026-11-01", "2026-11-15",
                ])
        #expect(
            days(
                try await store.query(
                    "Events", partition: "u1", sortKey: .between("2026-11-15", "2026-12-01"), limit: nil,
                    ascending: false)) == ["2026-12-01", "2026-11-15"])
        #expect(
            days(
                try await store.query(
                    "Events", partition: "u1", sortKey: .equals("2026-12-01"), limit: nil, ascending: true)) == [
                    "2026-12-01"
                ])
        #expect(
            days(try await store.query("Events", partition: "u1", sortKey: nil, limit: 2, ascending: false)) == [
                "2027-01-01", "2026-12-01",
            ])
        #expect(try await store.query("Events", partition: "nobody", sortKey: nil, limit: nil, ascending: true).isEmpty)
    }

    /// begins-with compares bytes, as DynamoDB does: a prefix ending in a combining mark, or
    /// in a character of several bytes, selects exactly the keys that start with those bytes.
    @Test(arguments: StoreBackend.allCases)
    func beginsWithComparesBytes(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        for key in ["cafe\u{301}-1", "cafe-2", "café-3", "日本-4", "日-5"] {
            try await store.put("Events", item: ["user": "u1", "at": .string(key)], condition: nil)
        }
        func matching(_ prefix: String) async throws -> [String] {
            try await store.query("Events", partition: "u1", sortKey: .beginsWith(prefix), limit: nil, ascending: true)
                .compactMap { $0["at"]?.stringValue }
        }
        #expect(try await matching("cafe\u{301}") == ["cafe\u{301}-1"])
        #expect(try await matching("cafe") == ["cafe-2", "cafe\u{301}-1"])
        #expect(try await matching("café") == ["café-3"])
        #expect(try await matching("日本") == ["日本-4"])
        #expect(try await matching("日") == ["日-5", "日本-4"])
    }

    @Test(arguments: StoreBackend.allCases)
    func numericSortKeysCompareAsNumbers(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        for score in [10, 9, 100, 2.5] {
            try await store.put("Scores", item: ["game": "g", "score": .number(score)], condition: nil)
        }
        let scores = try await store.query(
            "Scores", partition: "g", sortKey: .between(3, 100), limit: nil, ascending: true
        )
        .compactMap { $0["score"]?.numberValue }
        #expect(scores == [9, 10, 100])
    }

    @Test(arguments: StoreBackend.allCases)
    func transactionsAreAllOrNothingAndNameTheFailedOperation(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        try await store.put("Tokens", item: ["id": "taken"], condition: nil)
        await #expect(throws: StoreError.transactionCanceled(index: 1, table: "Tokens", key: "taken")) {
            try await store.transactWrite([
                .put(table: "Tokens", item: ["id": "user-1"], condition: .itemNotExists),
                .put(table: "Tokens", item: ["id": "taken"], condition: .itemNotExists),
                .update(table: "Counters", key: ItemKey(1), actions: [.add("users", 1)], condition: nil),
            ])
        }
        #expect(try await store.get("Tokens", key: ItemKey("user-1")) == nil)
        #expect(try await store.get("Counters", key: ItemKey(1)) == nil)
        try await store.transactWrite([
            .put(table: "Tokens", item: ["id": "user-1"], condition: .itemNotExists),
            .delete(table: "Tokens", key: ItemKey("taken"), condition: .itemExists),
            .update(table: "Counters", key: ItemKey(1), actions: [.add("users", 1)], condition: nil),
        ])
        #expect(try await store.get("Tokens", key: ItemKey("user-1")) != nil)
        #expect(try await store.get("Tokens", key: ItemKey("taken")) == nil)
        #expect(try await store.get("Counters", key: ItemKey(1))?["users"] == 1)
    }

    /// A condition check gates the transaction and leaves its item as it was; an expired item
    /// counts as absent for it too.
    @Test(arguments: StoreBackend.allCases)
    func aConditionCheckGatesATransactionWithoutWriting(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        try await store.put("Tokens", item: ["id": "user", "state": "active"], condition: nil)
        try await store.put("Tokens", item: ["id": "old", "ttl": 1_800_000_000], condition: nil)
        await #expect(throws: StoreError.transactionCanceled(index: 0, table: "Tokens", key: "user")) {
            try await store.transactWrite([
                .check(table: "Tokens", key: ItemKey("user"), condition: .attributeEquals("state", "locked")),
                .put(table: "Tokens", item: ["id": "session"], condition: nil),
            ])
        }
        await #expect(throws: StoreError.transactionCanceled(index: 0, table: "Tokens", key: "old")) {
            try await store.transactWrite([
                .check(table: "Tokens", key: ItemKey("old"), condition: .itemExists),
                .put(table: "Tokens", item: ["id": "session"], condition: nil),
            ])
        }
        #expect(try await store.get("Tokens", key: ItemKey("session")) == nil)
        try await store.transactWrite([
            .check(table: "Tokens", key: ItemKey("user"), condition: .attributeEquals("state", "active")),
            .check(table: "Tokens", key: ItemKey("nobody"), condition: .itemNotExists),
            .put(table: "Tokens", item: ["id": "session"], condition: nil),
        ])
        #expect(try await store.get("Tokens", key: ItemKey("session")) != nil)
        #expect(try await store.get("Tokens", key: ItemKey("user")) == ["id": "user", "state": "active"])
        #expect(try await store.get("Tokens", key: ItemKey("nobody")) == nil)
    }

    /// `attributeBelow` caps a counter inside a transaction: it holds for no item, an expired
    /// one, a missing attribute, or a count below the limit; at the limit (or on a value that is
    /// not a number) the transaction is canceled at the counter and nothing in it is written.
    @Test(arguments: StoreBackend.allCases)
    func aCounterCappedByAttributeBelowCancelsItsTransactionAtTheLimit(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        func counted(_ key: String, then id: String) -> [WriteOperation] {
            [
                .put(table: "Tokens", item: ["id": .string(id)], condition: nil),
                .update(
                    table: "Tokens", key: ItemKey(.string(key)),
                    actions: [.add("count", 1), .set("ttl", 1_800_000_060)], condition: .attributeBelow("count", 2)),
            ]
        }
        try await store.transactWrite(counted("counter", then: "first"))
        try await store.transactWrite(counted("counter", then: "second"))
        await #expect(throws: StoreError.transactionCanceled(index: 1, table: "Tokens", key: "counter")) {
            try await store.transactWrite(counted("counter", then: "third"))
        }
        #expect(try await store.get("Tokens", key: ItemKey("counter"))?["count"] == 2)
        #expect(try await store.get("Tokens", key: ItemKey("second")) != nil)
        #expect(try await store.get("Tokens", key: ItemKey("third")) == nil)

        // An expired counter at its limit is no counter: the count starts again.
        try await store.put("Tokens", item: ["id": "stale", "count": 5, "ttl": 1_799_999_000], condition: nil)
        try await store.transactWrite(counted("stale", then: "fourth"))
        #expect(try await store.get("Tokens", key: ItemKey("stale"))?["count"] == 1)

        // A value that is not a number is not below anything; a missing one is.
        try await store.put("Tokens", item: ["id": "odd", "count": "1"], condition: nil)
        await #expect(throws: StoreError.transactionCanceled(index: 1, table: "Tokens", key: "odd")) {
            try await store.transactWrite([
                .put(table: "Tokens", item: ["id": "fifth"], condition: nil),
                .check(table: "Tokens", key: ItemKey("odd"), condition: .attributeBelow("count", 2)),
            ])
        }
        #expect(try await store.get("Tokens", key: ItemKey("fifth")) == nil)
        try await store.transactWrite([
            .put(table: "Tokens", item: ["id": "sixth"], condition: nil),
            .check(table: "Tokens", key: ItemKey("odd"), condition: .attributeBelow("other", 2)),
        ])
        #expect(try await store.get("Tokens", key: ItemKey("sixth")) != nil)

        // A table without TTL has no expiry in the condition: a count of one under a cap of one.
        let once: [WriteOperation] = [
            .update(
                table: "Counters", key: ItemKey(7), actions: [.add("users", 1)], condition: .attributeBelow("users", 1))
        ]
        try await store.transactWrite(once)
        await #expect(throws: StoreError.transactionCanceled(index: 0, table: "Counters", key: "7")) {
            try await store.transactWrite(once)
        }
        #expect(try await store.get("Counters", key: ItemKey(7))?["users"] == 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func aTransactionMayNotTouchOneItemTwiceOrHoldTooMuch(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        await #expect(throws: StoreError.invalidTransaction("two operations on the same item (Tokens, a)")) {
            try await store.transactWrite([
                .put(table: "Tokens", item: ["id": "a"], condition: nil),
                .delete(table: "Tokens", key: ItemKey("a"), condition: nil),
            ])
        }
        await #expect(throws: StoreError.invalidTransaction("a transaction holds 1 to 100 operations, not 0")) {
            try await store.transactWrite([])
        }
        let many = (0..<101).map {
            WriteOperation.put(table: "Tokens", item: ["id": .string("k\($0)")], condition: nil)
        }
        await #expect(throws: StoreError.invalidTransaction("a transaction holds 1 to 100 operations, not 101")) {
            try await store.transactWrite(many)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func scanListsATableInKeyOrder(_ backend: StoreBackend) async throws {
        let store = try await StoreFixtures.store(backend)
        for id in ["c", "a", "b"] { try await store.put("Tokens", item: ["id": .string(id)], condition: nil) }
        #expect(try await store.scan("Tokens", limit: nil).compactMap { $0["id"]?.stringValue } == ["a", "b", "c"])
        #expect(try await store.scan("Tokens", limit: 2).count == 2)
        #expect(try await store.scan("Scores", limit: nil).isEmpty)
    }
}
