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
    /// Per live session, when it was read and its assurance level then.
    private let live = Mutex<[String: (readAt: Double, aal: String)]>([:])

    /// `uptime` is a monotonic clock in seconds (injected by tests).
    public init(
        store: any KeyValueStore, cacheSeconds: Double = 30,
        uptime: @escaping @Sendable () -> Double = JWKSCache.monotonicSeconds
    ) {
        self.store = store
        self.cacheSeconds = min(max(cacheSeconds, 0), Self.maximumCacheSeconds)
        self.uptime = uptime
    }

    /// The assurance level (`aal1`, `aal2`) `userID`'s session `sessionID` has, as its row says
    /// (a second factor's removal lowers it there before its tokens expire), or nil when the
    /// session has ended. A remembered level other than `claimed` (the token's) is read again:
    /// a session raised a moment ago passes at once. Throws what the store throws.
    public func assurance(userID: String, sessionID: String, claimed: String? = nil) async throws -> String? {
        let key = "\(userID)\u{0}\(sessionID)"
        let now = uptime()
        let remembered = live.withLock { cache in
            cache[key].flatMap {
                now - $0.readAt < cacheSeconds && (claimed == nil || $0.aal == claimed) ? $0.aal : nil
            }
        }
        if let remembered { return remembered }
        guard
            let session = try await store.get(
                RefreshTokens.sessionsTable, key: RefreshTokens.sessionKey(userID: userID, sessionID: sessionID))
        else {
            live.withLock { _ = $0.removeValue(forKey: key) }
            return nil
        }
        let aal = session["aal"]?.stringValue ?? "aal1"
        if cacheSeconds > 0 {
            live.withLock { cache in
                if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
                cache[key] = (now, aal)
            }
        }
        return aal
    }
}
