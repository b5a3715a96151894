import StoreCore

/// The brute-force guard of password sign-in, counted before the password is hashed (so the
/// guard bounds the work too, and racing tries cannot slip past it):
/// - per source IP, 30 failed sign-ins in 5 minutes: `rateLimited` (429). A try is counted
///   first and taken back when the password was right;
/// - per account (its address or number, whether or not an account has it, so the answers tell
///   nothing),
///   the 6th try in 15 minutes locks password sign-in for 15 minutes: `locked`, which the route
///   answers exactly as a wrong password. A right password forgets the account's tries.
public struct PasswordAttempts: Sendable {
    static let accountTries = RateLimit(name: "password-tries:account", limit: 5, window: 900)
    static let perSourceIP = RateLimit.perSource(name: "password:ip", limit: 30, window: 300)
    static let lock = TryLock(name: "password-lock", rules: [.init(limit: accountTries, lockSeconds: 900)])

    private let store: any KeyValueStore
    private let clock: any StoreClock

    public init(store: any KeyValueStore, clock: any StoreClock) {
        self.store = store
        self.clock = clock
    }

    /// Counts a try at the password of `account` (a normalised address, or an E.164 number) from
    /// `sourceIP`; throws when it may not be compared.
    public func begin(account: String, sourceIP: String?) async throws {
        try await countSource(sourceIP)
        try await Self.lock.countTry(account, store: store, clock: clock)
    }

    /// Counts a failed try from `sourceIP` (nil: unknown, not counted) before anything else is
    /// done with it, a malformed address's included; `rateLimited` past the source's limit.
    public func countSource(_ sourceIP: String?) async throws {
        guard let sourceIP else { return }
        let limiter = RateLimiter(store: store, clock: clock)
        if case .limited(let retryAfter) = try await limiter.hit(Self.perSourceIP, subject: sourceIP) {
            throw SignInError.rateLimited(retryAfter: retryAfter)
        }
    }

    /// The password was right: the account's tries are forgotten, the source's try taken back.
    public func succeeded(account: String, sourceIP: String?) async throws {
        try await Self.lock.clear(account, store: store, clock: clock)
        if let sourceIP {
            try? await RateLimiter(store: store, clock: clock).undo(Self.perSourceIP, subject: sourceIP)
        }
    }
}
