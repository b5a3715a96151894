import AuthKit
import GatehouseJSON
import Store
import Synchronization
import Testing

/// The Authorizer's audience check against the `Apps` table, on an injected monotonic clock.
struct RegisteredAudiencesTests {
    /// A monotonic clock the test moves.
    final class Uptime: Sendable {
        private let seconds = Mutex<Double>(100)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
        func now() -> Double { seconds.withLock { $0 } }
    }

    func fixture() async throws -> (AppRegistry, RegisteredAudiences, Uptime) {
        let store = try SessionFixtures.store(clock: TestClock(SessionFixtures.start))
        let apps = AppRegistry(store: store)
        try await apps.ensureDemoApp()
        try await apps.add(try App(id: "shop", name: "Shop", baseURL: nil, mobileScheme: nil, publicKeys: []))
        let uptime = Uptime()
        return (apps, RegisteredAudiences(store: store, cacheSeconds: 30, uptime: { uptime.now() }), uptime)
    }

    @Test func anyRegisteredAppIsAnAudienceAndNothingElse() async throws {
        let (_, audiences, _) = try await fixture()
        #expect(try await audiences.accepts("demo"))
        #expect(try await audiences.accepts("shop"))
        #expect(try await audiences.accepts(["other", "shop"]))
        #expect(try await !audiences.accepts("other"))
        #expect(try await !audiences.accepts(["other", "more"]))
        #expect(try await !audiences.accepts(""))
        #expect(try await !audiences.accepts(nil))
        #expect(try await !audiences.accepts([]))
        // A malformed `aud` names no app, even beside a registered one.
        #expect(try await !audiences.accepts(.number(1)))
        #expect(try await !audiences.accepts(["shop", .number(1)]))
        #expect(try await !audiences.accepts(["app": "shop"]))
    }

    /// Both answers are remembered for the cache's seconds, then read again: a removed app's
    /// tokens stop passing, and an app added after a refusal starts passing, within that time.
    @Test func answersAreRememberedForTheirSecondsOnly() async throws {
        let (apps, audiences, uptime) = try await fixture()
        #expect(try await audiences.isRegistered("shop"))
        #expect(try await !audiences.isRegistered("late"))
        try await apps.remove(id: "shop")
        try await apps.add(try App(id: "late", name: "Late", baseURL: nil, mobileScheme: nil, publicKeys: []))
        uptime.advance(29)
        #expect(try await audiences.isRegistered("shop"), "remembered")
        #expect(try await !audiences.isRegistered("late"), "remembered")
        uptime.advance(1)
        #expect(try await !audiences.isRegistered("shop"))
        #expect(try await audiences.isRegistered("late"))
    }

    @Test func withNoCacheEveryCheckReadsTheTable() async throws {
        let store = try SessionFixtures.store(clock: TestClock(SessionFixtures.start))
        let apps = AppRegistry(store: store)
        try await apps.add(try App(id: "shop", name: "Shop", baseURL: nil, mobileScheme: nil, publicKeys: []))
        let audiences = RegisteredAudiences(store: store, cacheSeconds: 0, uptime: { 5 })
        #expect(try await audiences.isRegistered("shop"))
        try await apps.remove(id: "shop")
        #expect(try await !audiences.isRegistered("shop"))
    }
}
