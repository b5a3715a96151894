import GatehouseJSON
import StoreCore

/// The members of a stored refresh token that a refresh reads; nil from an item that lacks one
/// (such a token is refused as unknown).
struct StoredRefreshToken: Sendable {
    let lineage: TokenLineage
    /// Milliseconds since 1970.
    let issuedAt: Double
    /// Milliseconds since 1970.
    let expiresAt: Double
    /// The session item's `ttl` when this token was made (seconds since 1970).
    let sessionTTL: Double

    init?(_ item: Item) {
        guard case .string(let userID)? = item["userId"], case .string(let sessionID)? = item["sessionId"],
            case .number(let issuedAt)? = item["issuedAt"], case .number(let expiresAt)? = item["expiresAt"],
            case .number(let sessionEndsAt)? = item["sessionEndsAt"]
        else { return nil }
        var compatibility: (app: String, provider: String)?
        if case .string(let app)? = item["app"], case .string(let provider)? = item["provider"] {
            compatibility = (app, provider)
        }
        lineage = TokenLineage(
            userID: userID, sessionID: sessionID, sessionEndsAt: sessionEndsAt, compatibility: compatibility)
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        sessionTTL = item["sessionTtl"]?.numberValue ?? 0
    }

    /// Seconds since 1970: the session's absolute end.
    var sessionEndsAt: Double { lineage.sessionEndsAt }

    /// The key of the token's session in `Sessions`.
    var session: ItemKey { lineage.session }
}
