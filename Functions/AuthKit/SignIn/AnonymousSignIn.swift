import GatehouseJSON
import StoreCore

/// Anonymous sign-in (Supabase's `signInAnonymously`): a new user with no address, number or
/// provider, and a session for it, written in one transaction.
///
/// - Off unless the template's `AnonymousUsers` is `enabled` (`ANONYMOUS_USERS`); the edge
///   refuses it by name when off.
/// - New users are limited per source (an IPv6 /64 as one): 30 an hour, Supabase's default
///   anonymous sign-in limit; and per app (`perApp`). Nothing else names an anonymous user, so
///   there is no subject to limit besides.
/// - An anonymous user sets no password: one would be usable by whoever set it once an address
///   is confirmed, and whoever confirms it may be someone else (`AccountChanges`). Once its
///   address is confirmed, its anonymous session needs the nonce mailed there for a password
///   (`Reauthentication.require(_:of:nonce:sourceIP:)`).
/// - An anonymous user not made permanent within `lifetime` (30 days, the age past which
///   Supabase's guide deletes them) is deleted by its item's `ttl`, not by a job; confirming an
///   address (`PUT /user {email}` and its link) makes it permanent, keeping its id and data.
public struct AnonymousSignIn: Sendable {
    public static let perSourceIP = RateLimit.perSource(name: "anonymous:ip", limit: 30, window: 3600)
    /// New anonymous users per app, from all sources together: 5,000 an hour, so that sources
    /// without number (every IPv6 /64 of a /48) cannot fill the store with users that live 30
    /// days. A source over its own limit is not counted here.
    public static let perApp = RateLimit(name: "anonymous:app", limit: 5_000, window: 3600)
    /// The session method, and the `amr` method, of an anonymous sign-in (Supabase's).
    public static let method = "anonymous"
    /// How long an anonymous user lives unless made permanent, in seconds: 30 days.
    public static let lifetime: Double = 30 * 86400
    /// The environment variable that turns it on (`enabled`) or leaves it off (`disabled`).
    public static let setting = "ANONYMOUS_USERS"

    let sessions: SessionService
    let store: any KeyValueStore
    let clock: any StoreClock

    public init(sessions: SessionService, store: any KeyValueStore, clock: any StoreClock) {
        self.sessions = sessions
        self.store = store
        self.clock = clock
    }

    /// Whether `environment` turns anonymous sign-in on: `ANONYMOUS_USERS` `enabled`; absent or
    /// `disabled`, off; anything else is `SettingsError.invalid`.
    public static func isEnabled(in environment: [String: String]) throws -> Bool {
        switch environment[setting] ?? "disabled" {
        case "enabled": return true
        case "disabled", "": return false
        default: throw SettingsError.invalid(setting, "must be enabled or disabled")
        }
    }

    /// A new anonymous user for `app`, with `metadata` (Supabase's `data`, checked as sign-up's
    /// is), and its session; `SignInError.rateLimited` past the source's limit, counted before
    /// anything is written.
    public func signIn(
        metadata: [String: JSONValue], app: String, sourceIP: String?
    ) async throws -> (user: User, session: SessionResponse) {
        let data = try PasswordAccounts.merge(metadata, into: [:])
        let limiter = RateLimiter(store: store, clock: clock)
        if case .limited(let seconds) = try await limiter.hit(Self.perSourceIP, subject: sourceIP ?? "unknown") {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        if case .limited(let seconds) = try await limiter.hit(Self.perApp, subject: app) {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        var user = User.anonymous(metadata: data, at: (clock.now * 1000).rounded(.down), lifetime: Self.lifetime)
        user.lastSignInAt = user.createdAt
        let session = try await sessions.start(user: user, app: app, provider: Self.method, creating: true)
        return (user, session)
    }
}
