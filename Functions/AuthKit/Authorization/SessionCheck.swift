import GatehouseJSON
import JOSE
import StoreCore
import Synchronization

/// Whether an access token's session still exists: what lets logout, refresh-token reuse and
/// account deletion refuse access tokens that are not yet expired.
///
/// One store read per check. A live answer is remembered for `cacheSeconds` (at most 30), so a
/// warm authorizer answers repeat callers from memory; an ended session is never remembered,
/// so it is refused from the first check after it ended (or after a remembered live answer's
/// seconds run out).
public final class SessionCheck: Sendable {
    /// The longest a live answer may be remembered.
    public static let maximumCacheSeconds: Double = 30
    /// The most sessions remembered; past it the memory starts again empty.
    static let capacity = 10_000

    private let store: any KeyValueStore
    private let cacheSeconds: Double
    private let uptime: @Sendable () -> Double
    private let live = Mutex<[String: Double]>([:])

    /// `uptime` is a monotonic clock in seconds (injected by tests).
    public init(
        store: any KeyValueStore, cacheSeconds: Double = 30,
        uptime: @escaping @Sendable () -> Double = JWKSCache.monotonicSeconds
    ) {
        self.store = store
        self.cacheSeconds = min(max(cacheSeconds, 0), Self.maximumCacheSeconds)
        self.uptime = uptime
    }

    /// Whether `userID`'s session `sessionID` exists. Throws what the store throws.
    public func isLive(userID: String, sessionID: String) async throws -> Bool {
        let key = "\(userID)\u{0}\(sessionID)"
        let now = uptime()
        let remembered = live.withLock { cache in cache[key].map { now - $0 < cacheSeconds } ?? false }
        if remembered { return true }
        let session = try await store.get(
            RefreshTokens.sessionsTable, key: RefreshTokens.sessionKey(userID: userID, sessionID: sessionID))
        guard session != nil else {
            live.withLock { _ = $0.removeValue(forKey: key) }
            return false
        }
        if cacheSeconds > 0 {
            live.withLock { cache in
                if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
                cache[key] = now
            }
        }
        return true
    }
}
