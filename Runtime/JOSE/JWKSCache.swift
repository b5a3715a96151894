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
public final class JWKSCache: Sendable {
    /// Timing rules, in seconds.
    public struct Settings: Sendable {
        /// The least time between two fetches caused by unknown `kid`s (or any fetch before it).
        public var penaltyWindow: Double
        /// How old the keys may get before a background refresh.
        public var maximumAge: Double

        public init(penaltyWindow: Double = 10, maximumAge: Double = 600) {
            self.penaltyWindow = penaltyWindow
            self.maximumAge = maximumAge
        }
    }

    /// What the cache has done, for logs and tests.
    public struct Status: Sendable, Equatable {
        /// Fetches started, successful or not.
        public var fetches = 0
        /// Successful fetches.
        public var successes = 0
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
        var status = Status()
    }

    /// The document's URL.
    public let url: String
    private let fetcher: any JWKSFetching
    private let settings: Settings
    private let uptime: @Sendable () -> Double
    private let state = Mutex(State())

    /// A cache for `url`; `uptime` is a monotonic clock in seconds (injected by tests).
    public init(
        url: String,
        fetcher: some JWKSFetching,
        settings: Settings = Settings(),
        uptime: @escaping @Sendable () -> Double = JWKSCache.monotonicSeconds
    ) {
        self.url = url
        self.fetcher = fetcher
        self.settings = settings
        self.uptime = uptime
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

    /// The keys to verify a token whose header names `kid` with. See the type's rules.
    public func keys(for kid: String?) async -> VerificationKeySet {
        enum Decision {
            case ready(VerificationKeySet)
            case wait(Task<String?, Never>)
        }
        let now = uptime()
        let decision = state.withLock { state -> Decision in
            if state.inFlight == nil, let fetchedAt = state.fetchedAt, now - fetchedAt >= settings.maximumAge {
                _ = startFetch(&state)
            }
            let known = kid.map(state.keys.knows(kid:)) ?? !state.keys.keys.isEmpty
            if known { return .ready(state.keys) }
            if let inFlight = state.inFlight {
                state.status.joined += 1
                return .wait(inFlight)
            }
            if let last = state.lastAttemptAt, now - last < settings.penaltyWindow { return .ready(state.keys) }
            return .wait(startFetch(&state))
        }
        switch decision {
        case .ready(let keys): return keys
        case .wait(let task):
            _ = await task.value
            return state.withLock { $0.keys }
        }
    }

    /// What the cache has done so far.
    public var status: Status { state.withLock { $0.status } }

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
                    state.status.successes += 1
                    state.status.lastError = nil
                case .failure(let error):
                    state.status.lastError = "\(error)"
                }
                return state.status.lastError
            }
        }
        state.inFlight = task
        return task
    }
}

/// The cache could not get its keys.
public enum JWKSCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    case fetchFailed(url: String, reason: String)

    public var description: String {
        switch self {
        case .fetchFailed(let url, let reason): "could not fetch the JWKS at \(url): \(reason)"
        }
    }
}
