import GatehouseJSON
import JOSE
import StoreCore
import Synchronization

/// Whether an access token's audience is a registered app (the `Apps` table): how the
/// Authorizer accepts every registered app's tokens without a list to keep in step.
///
/// One store read per audience not remembered. Both answers are remembered for `cacheSeconds`
/// (30 by default): a warm authorizer answers an app's repeat callers from memory, a token
/// for an app that is not (or no longer) registered costs one read per `cacheSeconds`, and an
/// app added or removed is seen within that time. Only tokens whose signature holds reach the
/// check, so the audiences asked about are ones Gatehouse itself signed for.
public final class RegisteredAudiences: Sendable {
    /// The most audiences remembered; past it the memory starts again empty.
    static let capacity = 10_000

    private let registry: AppRegistry
    private let cacheSeconds: Double
    private let uptime: @Sendable () -> Double
    /// Per audience: whether it is registered, and when that was read.
    private let remembered = Mutex<[String: (registered: Bool, readAt: Double)]>([:])

    /// `uptime` is a monotonic clock in seconds (injected by tests).
    public init(
        store: any KeyValueStore, cacheSeconds: Double = 30,
        uptime: @escaping @Sendable () -> Double = JWKSCache.monotonicSeconds
    ) {
        registry = AppRegistry(store: store)
        self.cacheSeconds = max(cacheSeconds, 0)
        self.uptime = uptime
    }

    /// Whether `audience` is a registered app's id. Throws what the store throws.
    public func isRegistered(_ audience: String) async throws -> Bool {
        let now = uptime()
        let known = remembered.withLock { cache -> Bool? in
            guard let entry = cache[audience], now - entry.readAt < cacheSeconds else { return nil }
            return entry.registered
        }
        if let known { return known }
        let registered = try await registry.app(id: audience) != nil
        if cacheSeconds > 0 {
            remembered.withLock { cache in
                if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
                cache[audience] = (registered, now)
            }
        }
        return registered
    }

    /// Whether a token's `aud` (a string, or a list of strings) names a registered app; a
    /// missing or malformed `aud` names none.
    public func accepts(_ audience: JSONValue?) async throws -> Bool {
        let names: [String]
        switch audience {
        case .string(let name)?: names = [name]
        case .array(let list)?:
            names = list.compactMap { entry in
                guard case .string(let name) = entry else { return nil }
                return name
            }
            guard names.count == list.count else { return false }
        default: return false
        }
        for name in names where !name.isEmpty {
            if try await isRegistered(name) { return true }
        }
        return false
    }
}
