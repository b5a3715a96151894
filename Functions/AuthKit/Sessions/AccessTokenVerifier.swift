import GatehouseJSON
import JOSE
import StoreCore

/// Checks Gatehouse's own access tokens with the signing keys' public halves only: what a route
/// that reads a bearer token but issues none holds (Supabase's `/logout`), so that it never needs
/// the private keys. `AccessTokens` checks with it too.
public struct AccessTokenVerifier: Sendable {
    let publicKeys: VerificationKeySet
    let issuer: String
    let clock: any StoreClock

    /// A verifier of tokens `issuer` signed with one of `publicKeys`.
    public init(publicKeys: JWKSet, issuer: String, clock: any StoreClock) {
        self.publicKeys = VerificationKeySet(jwks: publicKeys.keys)
        self.issuer = issuer
        self.clock = clock
    }

    /// Checks `token`: RS256, our issuer, audience `app`, not expired, with a subject and a
    /// session. Whether the session is still live is `bearer`'s second step.
    public func verify(_ token: String, app: String) throws(AccountError) -> AccessTokens.Bearer {
        let verifier = JWTVerifier(issuer: issuer, audiences: [app], algorithms: [.rs256], clockSkew: 0)
        do {
            let verified = try verifier.verify(verifier.parse(token), keys: publicKeys, now: clock.now)
            guard let subject = verified.subject, !subject.isEmpty,
                case .string(let sessionID)? = verified.claims["sid"]
            else { throw AccountError.badAccessToken }
            var bearer = AccessTokens.Bearer(userID: subject, sessionID: sessionID, app: app)
            if case .string(let aal)? = verified.claims["aal"] { bearer.tokenAAL = aal }
            return bearer
        } catch {
            throw .badAccessToken
        }
    }

    /// The bearer of the `Authorization` header's token for `app`, whose session is still live
    /// in `store` (read every time, so a session ended by logout or a password change refuses its
    /// tokens at once; its start goes along, for `Reauthentication.isRecent`).
    public func bearer(
        _ authorization: String?, app: String, store: any KeyValueStore
    ) async throws
        -> AccessTokens.Bearer
    {
        guard let token = BearerToken.parse(authorization) else { throw AccountError.missingAccessToken }
        var bearer = try verify(String(token), app: app)
        guard
            let session = try await store.get(
                RefreshTokens.sessionsTable,
                key: RefreshTokens.sessionKey(userID: bearer.userID, sessionID: bearer.sessionID))
        else { throw AccountError.sessionEnded }
        bearer.sessionStartedAt = session["createdAt"]?.numberValue
        bearer.sessionMethod = session["method"]?.stringValue
        bearer.sessionAAL = SessionState.assurance(row: session["aal"]?.stringValue, token: bearer.tokenAAL)
        return bearer
    }
}
