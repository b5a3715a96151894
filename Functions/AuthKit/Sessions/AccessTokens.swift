import GatehouseJSON
import JOSE
import StoreCore

/// Access tokens: JWTs signed with the current signing key (its `kid` in the header), with
/// `sub`, `sid` (the session), `data: {userId, email, name, provider}`, `iss`, `aud` (the app),
/// `iat`, `exp`, `jti`, and `phone` (E.164) for a user who has a number. `sid` lets an authorizer refuse the token once its session has ended.
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

    /// A token for `user` in `app` and session `sessionID`, signed in with `provider`, and when
    /// it expires (ms).
    public func issue(
        user: User, app: String, provider: String, sessionID: String
    ) throws -> (token: String, expiresAt: Double) {
        try issue(
            for: .init(
                id: user.id, email: user.email, name: user.name, provider: provider, isNewUser: false, phone: user.phone
            ),
            app: app,
            sessionID: sessionID)
    }

    /// A token for the signed-in `user` in `app` and session `sessionID`, and when it expires (ms).
    public func issue(
        for user: SessionResponse.UserSummary, app: String, sessionID: String
    ) throws -> (token: String, expiresAt: Double) {
        let issuedAt = clock.now.rounded(.down)
        let expiresAt = issuedAt + settings.accessTokenLifetime
        var data: [String: JSONValue] = ["userId": .string(user.id), "provider": .string(user.provider)]
        if let email = user.email { data["email"] = .string(email) }
        if let name = user.name { data["name"] = .string(name) }
        var claims: [String: JSONValue] = [
            "sub": .string(user.id), "sid": .string(sessionID), "data": .object(data), "iss": .string(settings.issuer),
            "aud": .string(app),
            "iat": .number(issuedAt), "exp": .number(expiresAt), "jti": .string(RandomToken.urlSafe(byteCount: 16)),
        ]
        if let phone = user.phone { claims["phone"] = .string(phone) }
        return (try JWS.signJWT(claims: claims, with: keys.current), expiresAt * 1000)
    }
}
