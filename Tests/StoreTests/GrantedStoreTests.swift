import Foundation
import GatehouseJSON
import Store
import Testing

/// `GrantedStore` refuses what a function's grants (`STORE_ACCESS`) do not allow, for the IAM
/// actions the DynamoDB store would send, before the store is touched.
struct GrantedStoreTests {
    /// Tokens (TTL) readable and deletable, Counters (no TTL) updatable, Scores checkable.
    static func store() throws -> (GrantedStore, SQLiteStore) {
        let base = try StoreFixtures.store()
        let grants = try TableGrants(environmentText: "Tokens=read,delete Counters=update Scores=check")
        return (GrantedStore(base, grants: grants, expiring: ["Tokens", "Events"]), base)
    }

    @Test func theVariableReadsAndWritesBack() throws {
        let grants = try TableGrants(environmentText: "Users=put,read Apps=check,read")
        #expect(grants.actions == ["Users": [.read, .put], "Apps": [.read, .check]])
        #expect(grants.environmentText == "Apps=read,check Users=read,put")
        for bad in ["Users", "Users=write", "=read", "Users=read Users=put", "Users=read,"] {
            #expect(throws: StoreError.self, "\(bad)") { try TableGrants(environmentText: bad) }
        }
    }

    @Test func whatIsGrantedGoesThrough() async throws {
        let (store, base) = try Self.store()
        try await base.put("Tokens", item: ["id": "a"], condition: nil)
        #expect(try await store.get("Tokens", key: ItemKey("a")) != nil)
        #expect(try await store.query("Tokens", partition: "a", sortKey: nil, limit: nil, ascending: true).count == 1)
        #expect(try await store.delete("Tokens", key: ItemKey("a"), condition: nil) != nil)
        _ = try await store.update("Counters", key: ItemKey(.number(1)), actions: [.add("count", 1)], condition: nil)
        try await store.transactWrite([
            .delete(table: "Tokens", key: ItemKey("b"), condition: nil),
            .check(table: "Scores", key: ItemKey("g", .number(1)), condition: .itemNotExists),
        ])
    }

    @Test func whatIsNotGrantedIsRefusedAndNotDone() async throws {
        let (store, base) = try Self.store()
        await #expect(throws: StoreError.notGranted(table: "Tokens", action: .put)) {
            try await store.put("Tokens", item: ["id": "a"], condition: nil)
        }
        #expect(try await base.get("Tokens", key: ItemKey("a")) == nil)
        await #expect(throws: StoreError.notGranted(table: "Scores", action: .read)) {
            _ = try await store.get("Scores", key: ItemKey("g", .number(1)))
        }
        await #expect(throws: StoreError.notGranted(table: "Events", action: .scan)) {
            _ = try await store.scan("Events", limit: nil)
        }
        // Reading several items at once needs reading each of their tables.
        await #expect(throws: StoreError.notGranted(table: "Scores", action: .read)) {
            _ = try await store.transactGet([("Tokens", ItemKey("a")), ("Scores", ItemKey("g", .number(1)))])
        }
        // Reading items by key (Tokens=read) is not reading the whole table.
        await #expect(throws: StoreError.notGranted(table: "Tokens", action: .scan)) {
            _ = try await store.scan("Tokens", limit: nil)
        }
        // An update of a table with a TTL may delete the expired item it finds: it needs both.
        await #expect(throws: StoreError.notGranted(table: "Tokens", action: .update)) {
            _ = try await store.update("Tokens", key: ItemKey("a"), actions: [.set("x", 1)], condition: nil)
        }
        let updatesOnly = GrantedStore(
            base, grants: TableGrants(["Tokens": [.update]]), expiring: ["Tokens"])
        await #expect(throws: StoreError.notGranted(table: "Tokens", action: .delete)) {
            _ = try await updatesOnly.update("Tokens", key: ItemKey("a"), actions: [.set("x", 1)], condition: nil)
        }
        // A transaction is refused whole for one write it may not make.
        await #expect(throws: StoreError.notGranted(table: "Counters", action: .check)) {
            try await store.transactWrite([
                .delete(table: "Tokens", key: ItemKey("a"), condition: nil),
                .check(table: "Counters", key: ItemKey(.number(1)), condition: .itemExists),
            ])
        }
    }
}
