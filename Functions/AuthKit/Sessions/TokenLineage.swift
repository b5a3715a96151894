/// What every refresh token of one session shares: whose it is, for which app, how the user
/// signed in, and when the session ends however active it is.
struct TokenLineage: Sendable, Equatable {
    let userID: String
    let app: String
    let sessionID: String
    let provider: String
    /// Seconds since 1970: no token of the session is valid from then on.
    let sessionEndsAt: Double
}
