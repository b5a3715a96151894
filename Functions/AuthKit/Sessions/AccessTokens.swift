import GatehouseJSON
import JOSE
import StoreCore

/// Access tokens: JWTs signed with the current signing key (its `kid` in the header), with
/// `sub`, `sid` (the session), `data: {userId, email, name, provider}`, `iss`, `aud` (the app),
/// `iat`, `exp`, `jti`, and what Supabase's clients and row-level security read: `role`
/// (`authenticated`), `session_id`, `email` and `phone` (E.164) when the user has them,
/// `is_anonymous`, `aal` and `amr` (the session's assurance), `app_metadata` and
/// `user_metadata` (left out, `{}`, past `userMetadataLimit` bytes). `sid` lets an authorizer
/// refuse the token once its session has ended. `aud` stays the app: the authorizer and every
/// verifier check it; Supabase's `aud` (`authenticated`) is `role`'s meaning here. With an
/// `AccessTokenHook`, the hook is given these claims and its answer is signed instead, within its
/// rules (`AccessTokenHook+Claims`).
public struct AccessTokens: Sendable {
    let keys: SigningKeySet
    let settings: SessionSettings
    let clock: any StoreClock
    /// The check of tokens this function made, with the public halves of `keys`.
    let verifier: AccessTokenVerifier
    /// The function that may add claims before a token is signed; nil: the claims as made.
    let hook: AccessTokenHook?

    public init(keys: SigningKeySet, settings: SessionSettings, clock: any StoreClock, hook: AccessTokenHook? = nil) {
        self.keys = keys
        self.settings = settings
        self.clock = clock
        self.hook = hook
        verifier = AccessTokenVerifier(publicKeys: keys.publicJWKS, issuer: settings.issuer, clock: clock)
    }

    /// A token for the signed-in `user` of `session`, and when it expires (ms): the one place an
    /// access token is made, from what the session's row holds (`SessionState`). With a hook, its
    /// claims are signed (`refreshing` tells it the token renews a session); when it fails, no
    /// token: `AccessTokenHookError`.
    public func issue(
        for user: SessionResponse.UserSummary, session: SessionState, refreshing: Bool = false
    ) async throws -> (token: String, expiresAt: Double) {
        let (made, expiresAt) = claims(for: user, session: session)
        var claims = made
        if let hook {
            let method = refreshing ? AccessTokenHook.refreshMethod : session.amr.last?.method ?? session.method
            claims = try await hook.claims(for: made, userID: user.id, authenticationMethod: method)
        }
        return (try JWS.signJWT(claims: claims, with: keys.current), expiresAt * 1000)
    }

    /// The claims Gatehouse makes for `user`'s token of `session`, and when it expires (s).
    func claims(
        for user: SessionResponse.UserSummary, session: SessionState
    ) -> (claims: [String: JSONValue], expiresAt: Double) {
        let issuedAt = clock.now.rounded(.down)
        let expiresAt = issuedAt + settings.accessTokenLifetime
        var data: [String: JSONValue] = ["userId": .string(user.id), "provider": .string(session.method)]
        if let email = user.email { data["email"] = .string(email) }
        if let name = user.name { data["name"] = .string(name) }
        var claims: [String: JSONValue] = [
            "sub": .string(user.id), "sid": .string(session.sessionID), "data": .object(data),
            "iss": .string(settings.issuer), "aud": .string(session.app), "iat": .number(issuedAt),
            "exp": .number(expiresAt), "jti": .string(RandomToken.urlSafe(byteCount: 16)), "aal": .string(session.aal),
            "amr": .array(session.amr.map(\.json)), "role": "authenticated", "session_id": .string(session.sessionID),
            "is_anonymous": .bool(user.isAnonymous), "app_metadata": .object(user.appMetadata),
            "user_metadata": .object(Self.bounded(user.userMetadata)),
        ]
        if let email = user.email { claims["email"] = .string(email) }
        if let phone = user.phone { claims["phone"] = .string(phone) }
        return (claims, expiresAt)
    }

    /// The most `user_metadata` an access token carries, as JSON bytes: 2 KB. A token travels in
    /// every request's `Authorization` header, which API Gateway caps (10 KB for all headers);
    /// larger metadata is read from `GET /user`.
    public static let userMetadataLimit = 2048

    /// `metadata`, or nothing when its JSON passes `userMetadataLimit`.
    static func bounded(_ metadata: [String: JSONValue]) -> [String: JSONValue] {
        JSONValue.object(metadata).serialized.utf8.count <= userMetadataLimit ? metadata : [:]
    }
}
