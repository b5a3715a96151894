import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// The rate limiter on a real store file: exact counts per window, under races too.
struct RateLimiterTests {
    static let sends = RateLimit(name: "send-magic-link:email", limit: 5, window: 3600)

    static func limiter() throws -> (RateLimiter, TestClock, SQLiteStore) {
        // 1,200 s into an hour-long window (1_800_000_000 is a multiple of 3,600).
        let clock = TestClock(SessionFixtures.start + 1200)
        let store = try SessionFixtures.store(clock: clock)
        return (RateLimiter(store: store, clock: clock), clock, store)
    }

    @Test func theLimitIsAllowedAndTheNextIsToldWhenToComeBack() async throws {
        let (limiter, clock, _) = try Self.limiter()
        for count in 1...5 {
            #expect(try await limiter.hit(Self.sends, subject: "ada@example.com") == .allowed(count: count))
        }
        #expect(try await limiter.hit(Self.sends, subject: "ada@example.com") == .limited(retryAfter: 2400))
        // Another subject, and another rule, count apart.
        #expect(try await limiter.hit(Self.sends, subject: "bob@example.com") == .allowed(count: 1))
        let ip = RateLimit(name: "send-magic-link:ip", limit: 30, window: 300)
        #expect(try await limiter.hit(ip, subject: "ada@example.com") == .allowed(count: 1))
        // The next window starts afresh.
        clock.set(SessionFixtures.start + 3600)
        #expect(try await limiter.hit(Self.sends, subject: "ada@example.com") == .allowed(count: 1))
    }

    /// Fifty requests at once for one address: exactly five are allowed.
    @Test func racingHitsAreCountedExactly() async throws {
        let (limiter, _, _) = try Self.limiter()
        let outcomes = try await withThrowingTaskGroup(of: RateLimiter.Outcome.self) { group in
            for _ in 0..<50 { group.addTask { try await limiter.hit(Self.sends, subject: "ada@example.com") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let allowed = outcomes.compactMap { outcome -> Int? in
            if case .allowed(let count) = outcome { return count }
            return nil
        }
        #expect(allowed.sorted() == [1, 2, 3, 4, 5])
        #expect(outcomes.count == 50)
    }

    /// The counter names the subject only by its hash, and goes when its window does.
    @Test func countersHoldNoAddressAndExpireWithTheirWindow() async throws {
        let (limiter, clock, store) = try Self.limiter()
        _ = try await limiter.hit(Self.sends, subject: "ada@example.com")
        let items = try await store.scan(RateLimiter.table, limit: nil)
        #expect(items.count == 1)
        let key = try #require(items.first?["key"]?.stringValue)
        #expect(!key.contains("ada"))
        #expect(key.hasPrefix("send-magic-link:email:1800000000:"))
        #expect(items.first?["ttl"] == .number(1_800_003_600))
        clock.set(SessionFixtures.start + 3600)
        #expect(try await store.scan(RateLimiter.table, limit: nil).isEmpty)
    }
}
