import GatehouseJSON
import StoreCore

/// Counts events against `RateLimit`s in the `RateLimits` table, in fixed windows, with the
/// store's atomic add: however many requests race, exactly `limit` of them are allowed in a
/// window (no read-then-write). The counter's key holds the SHA-256 of the subject, not the
/// address or number itself, and lives until its window ends (`ttl`).
///
/// A fixed window lets a burst straddle its boundary (up to twice the limit within a window's
/// length); what it guarantees is the limit per window, exactly.
public struct RateLimiter: Sendable {
    public static let table = "RateLimits"

    /// What a hit came to.
    public enum Outcome: Sendable, Equatable {
        /// Allowed: the `count`-th event of its window.
        case allowed(count: Int)
        /// Over the limit: nothing should happen; try again after this many seconds (at least 1).
        case limited(retryAfter: Int)
    }

    private let store: any KeyValueStore
    private let clock: any StoreClock

    public init(store: any KeyValueStore, clock: any StoreClock) {
        self.store = store
        self.clock = clock
    }

    /// Counts one event of `subject` against `rule`.
    public func hit(_ rule: RateLimit, subject: String) async throws -> Outcome {
        let event = count(rule, subject: subject)
        let item = try await store.update(Self.table, key: event.key, actions: event.actions, condition: nil)
        let count = item["count"]?.numberValue.map(Int.init) ?? Int.max
        guard count <= rule.limit else { return .limited(retryAfter: event.retryAfter) }
        return .allowed(count: count)
    }

    /// One event of `subject` counted against `rule` as a write of the caller's own transaction:
    /// it adds to the window's counter only while the count is below the limit, so at the limit
    /// the transaction is canceled at this write and nothing in it happens. Counts exactly as
    /// `hit` does under races, without a write of its own; a refused event is not counted.
    /// `retryAfter` is what to answer when it cancels (at least 1).
    public func hitWrite(_ rule: RateLimit, subject: String) -> (write: WriteOperation, retryAfter: Int) {
        let event = count(rule, subject: subject)
        let write = WriteOperation.update(
            table: Self.table, key: event.key, actions: event.actions,
            condition: .attributeBelow("count", Double(rule.limit)))
        return (write, event.retryAfter)
    }

    /// What counting one event of `subject` under `rule` now writes: the current window's
    /// counter, one added to it and its expiry at the window's end; and, should the event be
    /// over the limit, when to try again (at least 1 second).
    private func count(
        _ rule: RateLimit, subject: String
    ) -> (key: ItemKey, actions: [UpdateAction], retryAfter: Int) {
        let now = clock.now
        let windowStart = Self.windowStart(rule, at: now)
        let windowEnd = windowStart + rule.window
        return (
            Self.key(rule, subject: subject, windowStart: windowStart),
            [.add("count", 1), .set("ttl", .number(windowEnd.rounded(.up)))],
            max(1, Int((windowEnd - now).rounded(.up)))
        )
    }

    /// Takes back one event of `subject` under `rule` in the current window (one that turned
    /// out not to count: a sign-in that succeeded, where only failures are limited).
    public func undo(_ rule: RateLimit, subject: String) async throws {
        let windowStart = Self.windowStart(rule, at: clock.now)
        _ = try await store.update(
            Self.table, key: Self.key(rule, subject: subject, windowStart: windowStart),
            actions: [.add("count", -1), .set("ttl", .number((windowStart + rule.window).rounded(.up)))],
            condition: .itemExists)
    }

    /// Forgets the events of `subject` under `rule` in the current window.
    public func reset(_ rule: RateLimit, subject: String) async throws {
        _ = try await store.delete(
            Self.table, key: Self.key(rule, subject: subject, windowStart: Self.windowStart(rule, at: clock.now)),
            condition: nil)
    }

    /// The start of the window of `rule` that `now` falls in.
    static func windowStart(_ rule: RateLimit, at now: Double) -> Double {
        (now / rule.window).rounded(.down) * rule.window
    }

    /// The counter of `subject` under `rule` in the window starting at `windowStart` (a source
    /// counted as its `SourceKey`).
    static func key(_ rule: RateLimit, subject: String, windowStart: Double) -> ItemKey {
        let counted = rule.countsSources ? SourceKey.of(subject) : subject
        return ItemKey(.string("\(rule.name):\(Int(windowStart)):\(SHA256Hex.of(Array(counted.utf8)))"))
    }
}
