import GatehouseJSON
import JOSE
import StoreCore

extension AccessTokens {
    /// How long an access token works, in seconds (`ACCESS_TOKEN_TTL_SECONDS`).
    public var lifetime: Double { settings.accessTokenLifetime }

    /// Who an access token signs in, as its own routes check it (Supabase's `/user` and
    /// `/logout`, which no Lambda authorizer stands before).
    public struct Bearer: Sendable, Equatable {
        public let userID: String
        public let sessionID: String
        public let app: String
        /// When the session began (milliseconds since 1970), once `SessionService.bearer` has
        /// read it; nil from `verify` alone.
        public internal(set) var sessionStartedAt: Double? = nil
    }

    /// Checks `token` against this function's own signing keys (no JWKS fetch): RS256, our
    /// issuer, audience `app`, not expired, with a subject and a session. Whether the session is
    /// still live is the caller's second step (`SessionService.bearer`).
    public func verify(_ token: String, app: String) throws(AccountError) -> Bearer {
        let verifier = JWTVerifier(issuer: settings.issuer, audiences: [app], algorithms: [.rs256], clockSkew: 0)
        do {
            let verified = try verifier.verify(verifier.parse(token), keys: publicKeys, now: clock.now)
            guard let subject = verified.subject, !subject.isEmpty,
                case .string(let sessionID)? = verified.claims["sid"]
            else { throw AccountError.badAccessToken }
            return Bearer(userID: subject, sessionID: sessionID, app: app)
        } catch {
            throw .badAccessToken
        }
    }
}
