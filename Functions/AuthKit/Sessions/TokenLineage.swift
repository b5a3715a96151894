import GatehouseJSON
import StoreCore

/// What every refresh token of one session carries to decide its own validity: whose session it
/// is, and when that session ends however active it is. What the session says about its user
/// (app, method, assurance) is read from its row alone (`SessionState`).
struct TokenLineage: Sendable {
    let userID: String
    let sessionID: String
    /// Seconds since 1970: no token of the session is valid from then on.
    let sessionEndsAt: Double
    /// The session's app and method as the version before this one read them from each token
    /// (not from the row): written on every token so that a rolling deploy or a rollback keeps
    /// the sessions this version started, and read by this version only for a session whose row
    /// predates `SessionState` (no `method`). Nil when a token lacks them.
    let compatibility: (app: String, provider: String)?

    /// The key of the session's row in `Sessions`.
    var session: ItemKey { RefreshTokens.sessionKey(userID: userID, sessionID: sessionID) }
}
