import GatehouseJSON
import StoreCore

/// What every refresh token of one session carries to decide its own validity: whose session it
/// is, and when that session ends however active it is. What the session says about its user
/// (app, method, assurance) is on its row alone (`SessionState`).
struct TokenLineage: Sendable, Equatable {
    let userID: String
    let sessionID: String
    /// Seconds since 1970: no token of the session is valid from then on.
    let sessionEndsAt: Double
    /// The sign-in method of a session started before sessions held it, which its tokens carry
    /// on until it ends; nil for every later session.
    let legacyProvider: String?

    /// The key of the session's row in `Sessions`.
    var session: ItemKey { ItemKey(.string(userID), .string(sessionID)) }
}
