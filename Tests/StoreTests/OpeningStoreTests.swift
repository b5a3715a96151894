import Foundation
import GatehouseJSON
import Store
import Synchronization
import Testing

@testable import FunctionStore

/// A store opened in the background (the Authorizer's): calls wait for the one open, and an open
/// that failed is tried again by the next call rather than failing the process for its life.
struct OpeningStoreTests {
    enum Unreachable: Error { case now }

    @Test func callsShareOneOpenAndAFailedOpenIsTriedAgain() async throws {
        let opens = Atomic<Int>(0)
        let path = StoreFixtures.temporaryPath()
        let store = OpeningStore {
            guard opens.add(1, ordering: .relaxed).newValue > 1 else { throw Unreachable.now }
            return try StoreFixtures.store(path: path)
        }
        await #expect(throws: Unreachable.self) { _ = try await store.get("Tokens", key: ItemKey("a")) }
        try await store.put("Tokens", item: ["id": "a", "v": 1], condition: nil)
        async let first = store.get("Tokens", key: ItemKey("a"))
        async let second = store.get("Tokens", key: ItemKey("a"))
        let (one, two) = try await (first, second)
        #expect(one?["v"] == 1 && two?["v"] == 1)
        #expect(opens.load(ordering: .relaxed) == 2)
    }
}
