import Synchronization

/// The verification keys of one JWKS URL, shared by every request of a process.
///
/// - Hydrate it during the cold start (`hydrate()`), so the first request does not pay for the
///   fetch.
/// - `keys(for:)` answers from memory while the token's `kid` is known: keys are parsed once per
///   fetch, never per request.
/// - An unknown `kid` triggers a refetch, at most once per penalty window: within the window
///   such tokens fail fast (the caller gets the current keys, which do not know the `kid`), while
///   tokens with known keys keep verifying. Concurrent misses wait for the same fetch.
/// - After `maximumAge` the keys are refreshed in the background; requests keep the current keys
///   meanwhile. A failed fetch keeps the cached keys in use.
/// - After a failed fetch, no fetch starts (background or unknown `kid`) until a backoff has
///   passed: the penalty window (at least 1 s), doubled for each further failure in a row, up to
///   `maximumBackoff`, each step shortened by a random part of up to half (jitter), so a failing
///   issuer sees one fetch per step from a process however many requests arrive.
/// - Keys older than `maximumStaleness` (their last successful fetch) are not used: `keys(for:)`
///   throws `JWKSCacheError.stale`, failing verification closed, until a fetch succeeds.
/// - Before any fetch has succeeded, a `kid` the cache cannot look up makes `keys(for:)` throw
///   `JWKSCacheError.fetchFailed` (with the last failure) rather than answer an empty key set:
///   the caller can tell "the keys are unavailable" from "no such key".
public final class JWKSCache: Sendable {
    /// Timing rules, in seconds.
    public struct Settings: Sendable {
        /// The least time between two fetches caused by unknown `kid`s (or any fetch before it).
        public var penaltyWindow: Double
        /// How old the keys may get before a background refresh.
        public var maximumAge: Double
        /// The longest wait between two fetches after failures.
        public var maximumBackoff: Double
        /// How old the keys may get, when refreshes keep failing, before they are no longer used.
        public var maximumStaleness: Double

        public init(
            penaltyWindow: Double = 10, maximumAge: Double = 600, maximumBackoff: Double = 300,
            maximumStaleness: Double = 86400
        ) {
            self.penaltyWindow = penaltyWindow
            self.maximumAge = maximumAge
            self.maximumBackoff = maximumBackoff
            self.maximumStaleness = maximumStaleness
        }
    }

    /// What the cache has done, for logs and tests.
    public struct Status: Sendable, Equatable {
        /// Fetches started, successful or not.
        public var fetches = 0
        /// Successful fetches.
        public var successes = 0
        /// Failed fetches.
        public var failures = 0
        /// Unknown-`kid` lookups that waited for a fetch already under way instead of starting one.
        public var joined = 0
        /// The last failure's description, cleared by a success.
        public var lastError: String?
    }

    private struct State {
        var keys = VerificationKeySet(jwks: [])
        var fetchedAt: Double?
        var lastAttemptAt: Double?
        var inFlight: Task<String?, Never>?
        /// Failed fetches since the last success.
        var failures = 0
        /// Before this, no fetch starts (after failures).
        var backoffUntil: Double?
        var status = Status()
    }

    /// The document's URL.
    public let url: String
    private let fetcher: any JWKSFetching
    private let settings: Settings
    private let uptime: @Sendable () -> Double
    private let jitter: @Sendable () -> Double
    private let state = Mutex(State())

    /// A cache for `url`; `uptime` is a monotonic clock in seconds and `jitter` a random number
    /// in 0..<1 (both injected by tests).
    public init(
        url: String,
        fetcher: some JWKSFetching,
        settings: Settings = Settings(),
        uptime: @escaping @Sendable () -> Double = JWKSCache.monotonicSeconds,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.url = url
        self.fetcher = fetcher
        self.settings = settings
        self.uptime = uptime
        self.jitter = jitter
    }

    /// Seconds on the system's monotonic clock.
    public static func monotonicSeconds() -> Double {
        let elapsed = epoch.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }

    private static let epoch = ContinuousClock.now

    /// Fetches the keys now (joining a fetch already under way) and reports a failure, which
    /// leaves the cache as it was: the caller logs it and carries on.
    public func hydrate() async throws {
        let task = state.withLock { state in state.inFlight ?? startFetch(&state) }
        if let error = await task.value {
            throw JWKSCacheError.fetchFailed(url: url, reason: error)
        }
    }

    /// `hydrate()` in a task of its own, for a cold start that goes on meanwhile: the first
    /// `keys(for:)` joins the fetch. A failure goes to `failed` (the caller's log) and leaves
    /// the cache as it was.
    public func hydrateInBackground(_ failed: @escaping @Sendable (any Error) -> Void) {
        Task {
            do {
                try await hydrate()
            } catch {
                failed(error)
            }
        }
    }

    /// The keys to verify a token whose header names `kid` with. See the type's rules; throws
    /// `JWKSCacheError.stale` when the keys are past their maximum staleness, and
    /// `JWKSCacheError.fetchFailed` when no fetch has succeeded yet and none could now.
    public func keys(for kid: String?) async throws(JWKSCacheError) -> VerificationKeySet {
        enum Decision {
            case ready(VerificationKeySet)
            case wait(Task<String?, Never>)
            case stale(age: Double)
            case unavailable(String?)
        }
        let now = uptime()
        let decision = state.withLock { state -> Decision in
            let mayFetch = state.inFlight == nil && state.backoffUntil.map { now >= $0 } ?? true
            if mayFetch, let fetchedAt = state.fetchedAt, now - fetchedAt >= settings.maximumAge {
                _ = startFetch(&state)
            }
            if let fetchedAt = state.fetchedAt, now - fetchedAt > settings.maximumStaleness {
                return state.inFlight.map(Decision.wait) ?? .stale(age: now - fetchedAt)
            }
            let known = kid.map(state.keys.knows(kid:)) ?? !state.keys.keys.isEmpty
            if known { return .ready(state.keys) }
            if let inFlight = state.inFlight {
                state.status.joined += 1
                return .wait(inFlight)
            }
            let waiting =
                state.lastAttemptAt.map { now - $0 < settings.penaltyWindow } ?? false
                || state.backoffUntil.map { now < $0 } ?? false
            if waiting { return state.fetchedAt == nil ? .unavailable(state.status.lastError) : .ready(state.keys) }
            return .wait(startFetch(&state))
        }
        switch decision {
        case .ready(let keys): return keys
        case .stale(let age): throw staleness(age)
        case .unavailable(let reason): throw unavailable(reason)
        case .wait(let task):
            let failure = await task.value
            let (keys, fetchedAt) = state.withLock { ($0.keys, $0.fetchedAt) }
            guard let fetchedAt else { throw unavailable(failure) }
            let age = uptime() - fetchedAt
            if age > settings.maximumStaleness { throw staleness(age) }
            return keys
        }
    }

    /// No fetch has succeeded yet, so no key is known: the token cannot be checked, which is not
    /// the same as a token whose `kid` the issuer does not publish.
    private func unavailable(_ reason: String?) -> JWKSCacheError {
        .fetchFailed(url: url, reason: reason ?? "no fetch has succeeded yet")
    }

    private func staleness(_ age: Double) -> JWKSCacheError {
        .stale(url: url, ageSeconds: Int(age), limitSeconds: Int(settings.maximumStaleness))
    }

    /// Whether the keys in memory now know `kid`: no fetch, no wait (a token of another issuer
    /// is told apart from ours without touching our keys' refresh rules).
    public func knowsNow(kid: String) -> Bool {
        state.withLock { $0.keys.knows(kid: kid) }
    }

    /// What the cache has done so far.
    public var status: Status { state.withLock { $0.status } }

    /// How long to wait after the `failures`-th failure in a row: the penalty window (at least
    /// 1 s) doubled per further failure, at most `maximumBackoff`, less up to half at random.
    private func backoff(afterFailures failures: Int) -> Double {
        let base = max(settings.penaltyWindow, 1)
        let step = min(base * Double(1 << min(failures - 1, 30)), max(settings.maximumBackoff, base))
        return step * (1 - 0.5 * jitter())
    }

    /// Starts a fetch; its task answers the failure's description, or nil when the keys were
    /// replaced.
    private func startFetch(_ state: inout State) -> Task<String?, Never> {
        state.lastAttemptAt = uptime()
        state.status.fetches += 1
        let task = Task { [self] in
            let result: Result<VerificationKeySet, any Error>
            do {
                result = .success(try VerificationKeySet(jwksJSON: try await fetcher.fetchJWKS(from: url)))
            } catch {
                result = .failure(error)
            }
            let finishedAt = uptime()
            return self.state.withLock { state -> String? in
                state.inFlight = nil
                switch result {
                case .success(let keys):
                    state.keys = keys
                    state.fetchedAt = finishedAt
                    state.failures = 0
                    state.backoffUntil = nil
                    state.status.successes += 1
                    state.status.lastError = nil
                case .failure(let error):
                    state.failures += 1
                    state.status.failures += 1
                    state.backoffUntil = finishedAt + backoff(afterFailures: state.failures)
                    state.status.lastError = "\(error)"
                }
                return state.status.lastError
            }
        }
        state.inFlight = task
        return task
    }
}

/// The cache could not get its keys, or has only keys too old to use.
public enum JWKSCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    case fetchFailed(url: String, reason: String)
    /// Every refresh since the last success failed, and that success is older than the limit.
    case stale(url: String, ageSeconds: Int, limitSeconds: Int)

    public var description: String {
        switch self {
        case .fetchFailed(let url, let reason): "could not fetch the JWKS at \(url): \(reason)"
        case .stale(let url, let age, let limit):
            "the keys from \(url) were last fetched \(age) s ago, over the \(limit) s limit; refreshing them fails"
        }
    }

    /// The stable snake_case name for log lines.
    public var reasonCode: String {
        switch self {
        case .fetchFailed: "jwks_fetch_failed"
        case .stale: "jwks_stale"
        }
    }
}
