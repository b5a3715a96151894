import GatehouseJSON
import StoreCore

/// Tries at a secret (a password, a reauthentication nonce) counted per subject before each comparison,
/// against rules that lock: the try over a rule's limit locks the subject for that rule's time,
/// and a locked subject is refused before anything is compared. Counted with the store's atomic
/// add, so however many tries race, no more than a rule's limit are compared in its window.
/// The lock lives in `RateLimits` under the SHA-256 of the subject, until it ends.
public struct TryLock: Sendable {
    /// A limit on tries, and how long the try over it locks the subject.
    public struct Rule: Sendable, Equatable {
        public let limit: RateLimit
        public let lockSeconds: Double

        public init(limit: RateLimit, lockSeconds: Double) {
            self.limit = limit
            self.lockSeconds = lockSeconds
        }
    }

    /// The lock items' prefix, e.g. `otp-lock`.
    public let name: String
    public let rules: [Rule]

    public init(name: String, rules: [Rule]) {
        self.name = name
        self.rules = rules
    }

    /// Counts one try of `subject`: `SignInError.locked` when it is locked, or when this try is
    /// over a rule (which locks it).
    public func countTry(_ subject: String, store: any KeyValueStore, clock: any StoreClock) async throws {
        let lockKey = ItemKey(.string("\(name):\(SHA256Hex.of(Array(subject.utf8)))"))
        let now = clock.now
        if let until = try await store.get(RateLimiter.table, key: lockKey)?["until"]?.numberValue, until > now {
            throw SignInError.locked(retryAfter: max(1, Int((until - now).rounded(.up))))
        }
        let limiter = RateLimiter(store: store, clock: clock)
        for rule in rules {
            guard case .limited = try await limiter.hit(rule.limit, subject: subject) else { continue }
            let until = now + rule.lockSeconds
            try await store.put(
                RateLimiter.table,
                item: ["key": lockKey.partition, "until": .number(until), "ttl": .number(until.rounded(.up))],
                condition: nil)
            throw SignInError.locked(retryAfter: Int(rule.lockSeconds))
        }
    }

    /// Forgets the subject's tries under the first rule: a right answer, so a person's earlier
    /// typos do not lock them later.
    public func clear(_ subject: String, store: any KeyValueStore, clock: any StoreClock) async throws {
        guard let first = rules.first else { return }
        try await RateLimiter(store: store, clock: clock).reset(first.limit, subject: subject)
    }
}
