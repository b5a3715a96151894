import AuthKit
import Foundation
import GatehouseJSON
import Store
import StoreCore
import Testing

/// An app's server keys: shown once, stored as a hash an admin request gets in one read,
/// several at once, each revocable, refused from a browser and limited per key.
struct ServerKeysTests {
    let clock = TestClock(SessionFixtures.start)
    let store: SQLiteStore
    let keys: ServerKeys

    init() async throws {
        store = try SessionFixtures.store(clock: clock)
        try await AppRegistry(store: store).ensureDemoApp()
        keys = ServerKeys(store: store, clock: clock)
    }

    func authenticate(_ key: String?, origin: String? = nil, bearer: String? = nil) async throws -> ServerKey {
        try await keys.authenticate(
            apikey: key, authorization: bearer ?? key.map { "Bearer \($0)" }, origin: origin, sourceIP: "192.0.2.1")
    }

    @Test func aKeyIsStoredOnlyAsItsHashAndNamesItsApp() async throws {
        let (secret, key) = try await keys.create(app: "demo")
        #expect(secret.hasPrefix("gh_sk_") && secret.count == 49)
        #expect(key.app == "demo" && key.id.count == 12)
        let stored = try await store.scan("Apps", limit: nil)
        let text = String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
        #expect(!text.contains(secret) && !text.contains(String(secret.dropFirst(6).prefix(20))))
        #expect(try await authenticate(secret) == key)
        #expect(try await keys.list(app: "demo").map(\.id) == [key.id])
        // `gatehouse apps list` still lists only apps.
        #expect(try await AppRegistry(store: store).list().map(\.id) == ["demo"])
    }

    @Test func severalKeysLiveAtOnceAndARevokedOneIsRefused() async throws {
        let (first, firstKey) = try await keys.create(app: "demo")
        let (second, secondKey) = try await keys.create(app: "demo")
        #expect(try await keys.list(app: "demo").map(\.id) == [firstKey.id, secondKey.id])
        try await keys.revoke(app: "demo", keyID: firstKey.id)
        await #expect(throws: ServerKeyError.invalid) { try await authenticate(first) }
        #expect(try await authenticate(second) == secondKey)
        await #expect(throws: ServerKeyError.notFound(firstKey.id)) {
            try await keys.revoke(app: "demo", keyID: firstKey.id)
        }
    }

    @Test func refusalsFromABrowserUnknownPublishableMismatchedOrOfAnotherApp() async throws {
        let (secret, _) = try await keys.create(app: "demo")
        await #expect(throws: ServerKeyError.fromBrowser) {
            try await authenticate(secret, origin: "https://example.com")
        }
        await #expect(throws: ServerKeyError.invalid) {
            try await authenticate("gh_sk_" + String(repeating: "A", count: 43))
        }
        await #expect(throws: ServerKeyError.invalid) { try await authenticate(nil) }
        let publishable = try #require(try await AppRegistry(store: store).app(id: "demo")?.publishableKey)
        await #expect(throws: ServerKeyError.publishableKey) { try await authenticate(publishable) }
        // A bearer that is not the same key.
        await #expect(throws: ServerKeyError.invalid) {
            try await authenticate(secret, bearer: "Bearer \(publishable)")
        }
        // An app removed: its keys go with it.
        try await AppRegistry(store: store).add(
            try App(id: "other", name: "Other", baseURL: nil, mobileScheme: "other", publicKeys: []))
        let (other, _) = try await keys.create(app: "other")
        try await AppRegistry(store: store).remove(id: "other")
        await #expect(throws: ServerKeyError.invalid) { try await authenticate(other) }
        // Registered again under the same id: the removed app's keys stay dead.
        try await AppRegistry(store: store).add(
            try App(id: "other", name: "Other", baseURL: nil, mobileScheme: "other", publicKeys: []))
        await #expect(throws: ServerKeyError.invalid) { try await authenticate(other) }
        #expect(try await keys.list(app: "other").isEmpty)
        await #expect(throws: AppError.notFound("nope")) { try await keys.create(app: "nope") }
    }

    @Test func eachKeyIsLimitedAndRefusalsArePerSource() async throws {
        let (secret, _) = try await keys.create(app: "demo")
        for _ in 0..<ServerKeys.requestsPerKey.limit { _ = try await authenticate(secret) }
        await #expect(throws: ServerKeyError.rateLimited(retryAfter: 60)) { try await authenticate(secret) }
        for _ in 0..<ServerKeys.refusalsPerSource.limit {
            await #expect(throws: ServerKeyError.invalid) { try await authenticate("wrong") }
        }
        await #expect(throws: ServerKeyError.rateLimited(retryAfter: 60)) { try await authenticate("wrong") }
    }
}
