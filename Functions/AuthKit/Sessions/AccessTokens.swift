import GatehouseJSON
import JOSE
import StoreCore

/// Access tokens: JWTs signed with the current signing key (its `kid` in the header), with
/// `sub`, `sid` (the session), `data: {userId, email, name, provider}`, `iss`, `aud` (the app),
/// `iat`, `exp`, `jti`, `aal` and `amr` (the session's assurance, Supabase's claims), and
/// `phone` (E.164) for a user who has a number. `sid` lets an authorizer refuse the token once
/// its session has ended.
public struct AccessTokens: Sendable {
    let keys: SigningKeySet
    let settings: SessionSettings
    let clock: any StoreClock
    /// The check of tokens this function made, with the public halves of `keys`.
    let verifier: AccessTokenVerifier

    public init(keys: SigningKeySet, settings: SessionSettings, clock: any StoreClock) {
        self.keys = keys
        self.settings = settings
        self.clock = clock
        verifier = AccessTokenVerifier(publicKeys: keys.publicJWKS, issuer: settings.issuer, clock: clock)
    }

    /// A token for the signed-in `user` of `session`, and when it expires (ms): the one place an
    /// access token is made, from what the session's row holds (`SessionState`).
    public func issue(
        for user: SessionResponse.UserSummary, session: SessionState
    ) throws -> (token: String, expiresAt: Double) {
        let issuedAt = clock.now.rounded(.down)
        let expiresAt = issuedAt + settings.accessTokenLifetime
        var data: [String: JSONValue] = ["userId": .string(user.id), "provider": .string(session.method)]
        if let email = user.email { data["email"] = .string(email) }
        if let name = user.name { data["name"] = .string(name) }
        var claims: [String: JSONValue] = [
            "sub": .string(user.id), "sid": .string(session.sessionID), "data": .object(data),
            "iss": .string(settings.issuer), "aud": .string(session.app), "iat": .number(issuedAt),
            "exp": .number(expiresAt), "jti": .string(RandomToken.urlSafe(byteCount: 16)), "aal": .string(session.aal),
            "amr": .array(session.amr.map(\.json)),
        ]
        if let phone = user.phone { claims["phone"] = .string(phone) }
        return (try JWS.signJWT(claims: claims, with: keys.current), expiresAt * 1000)
    }
}
