import GatehouseJSON
import StoreCore

/// Linking a provider's identity through its pages (Supabase's `linkIdentity`): what ties the
/// signed-in user who asked to the browser flow that comes back from the provider, kept in the
/// store, never in a cookie (a cookie planted on the API's domain could otherwise bind someone
/// else's flow to a user).
///
/// 1. `start` (`GET /auth/v1/user/identities/authorize`, with the user's access token and a
///    recent sign-in, and the client's PKCE challenge): a one-time handle, 32 random bytes kept
///    as their SHA-256 in `AuthCodes` for 5 minutes with the user, app, provider, challenge and
///    return address; the answer is the URL of `/auth/v1/authorize?link=<handle>`.
/// 2. `/auth/v1/authorize?link=` takes the handle (once) and begins the OAuth flow with what it
///    holds (`OAuthFlow.begin(link:)`), binding the flow's `state` to the user (`bind`).
/// 3. The callback takes that binding by its `state` (`takeBound`) and, instead of signing
///    anyone in, mints a flow code for the user that carries the provider's identity.
/// 4. The identity is linked only when that code is exchanged with the verifier of the
///    challenge sent at step 1 (`PasswordAccounts.signIn(authCode:…)`): only the client that
///    asked holds it. A link URL opened by someone else's browser (an attacker's, sent to a
///    victim) ends in a code that client cannot exchange, so nobody's identity is linked to
///    another's account.
public struct IdentityLinkFlow: Sendable {
    /// How long a handle and a bound flow live, in seconds.
    public static let lifetime: Double = 300

    /// What a handle holds: whose link, for which app and provider, the client's challenge and
    /// where the flow returns.
    public struct Start: Sendable, Equatable {
        public init(userID: String, app: String, provider: String, challenge: String, redirectTo: String) {
            self.userID = userID
            self.app = app
            self.provider = provider
            self.challenge = challenge
            self.redirectTo = redirectTo
        }

        public let userID: String
        public let app: String
        public let provider: String
        public let challenge: String
        public let redirectTo: String
    }

    let store: any KeyValueStore
    let clock: any StoreClock

    public init(store: any KeyValueStore, clock: any StoreClock) {
        self.store = store
        self.clock = clock
    }

    /// A handle for `start`, written for `lifetime`: what `/auth/v1/authorize?link=` takes.
    public func handle(for start: Start) async throws -> String {
        let handle = RandomToken.urlSafe(byteCount: 32)
        try await store.put(
            AuthCodes.table, item: item(key: "link:" + AuthCodes.hash(handle), Self.values(start)),
            condition: .itemNotExists)
        return handle
    }

    /// The start `handle` stands for, taken once (a delete that returns it to one caller); nil
    /// when it is unknown, used or expired.
    public func take(_ handle: String) async throws -> Start? {
        try await take(key: "link:" + AuthCodes.hash(handle)).flatMap(Self.start(of:))
    }

    /// Binds the OAuth flow whose `state` is `state` to `start` (its user, app, provider,
    /// challenge and return address: the callback reads them here, never from the flow's cookies).
    func bind(state: String, to start: Start) async throws {
        try await store.put(
            AuthCodes.table, item: item(key: Self.stateKey(state), Self.values(start)), condition: .itemNotExists)
    }

    /// The start the flow of `state` links for, taken once; nil for a flow that is no link (a
    /// sign-in), or whose binding expired.
    func takeBound(state: String) async throws -> Start? {
        try await take(key: Self.stateKey(state)).flatMap(Self.start(of:))
    }

    private static func stateKey(_ state: String) -> String { "link-state:" + AuthCodes.hash(state) }

    private static func values(_ start: Start) -> Item {
        [
            "userId": .string(start.userID), "app": .string(start.app), "provider": .string(start.provider),
            "challenge": .string(start.challenge), "redirectTo": .string(start.redirectTo),
        ]
    }

    private static func start(of item: Item) -> Start? {
        guard case .string(let userID)? = item["userId"], case .string(let app)? = item["app"],
            case .string(let provider)? = item["provider"], case .string(let challenge)? = item["challenge"],
            case .string(let redirectTo)? = item["redirectTo"]
        else { return nil }
        return Start(userID: userID, app: app, provider: provider, challenge: challenge, redirectTo: redirectTo)
    }

    /// An item under `key` in `AuthCodes` with `values`, expiring after `lifetime`.
    private func item(key: String, _ values: Item) -> Item {
        let expires = clock.now + Self.lifetime
        return values.merging(
            [
                "code": .string(key), "expiresAt": .number((expires * 1000).rounded(.down)),
                "ttl": .number(expires.rounded(.up)),
            ]) { $1 }
    }

    /// The live item under `key`, deleted by this call alone.
    private func take(key: String) async throws -> Item? {
        guard let item = try await store.delete(AuthCodes.table, key: ItemKey(.string(key)), condition: nil),
            let expiresAt = item["expiresAt"]?.numberValue, clock.now * 1000 < expiresAt
        else { return nil }
        return item
    }
}
