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
        /// How the session began (`SessionState.method`: `email`, `anonymous`, …), once
        /// `SessionService.bearer` has read it; nil from `verify` alone.
        public internal(set) var sessionMethod: String? = nil
        /// The assurance level the request holds (`aal1`, or `aal2` after a second factor: the
        /// token's and the session's row's, `SessionState.assurance`), once
        /// `SessionService.bearer` has read the row; nil from `verify` alone.
        public internal(set) var sessionAAL: String? = nil
        /// The `aal` the access token was issued with (`verify` reads it).
        public internal(set) var tokenAAL: String? = nil
    }

    /// Checks `token` against this function's own signing keys (no JWKS fetch), as
    /// `AccessTokenVerifier.verify` does.
    public func verify(_ token: String, app: String) throws(AccountError) -> Bearer {
        try verifier.verify(token, app: app)
    }
}
