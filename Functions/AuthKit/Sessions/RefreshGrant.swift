/// A refresh token handed to a client, and what it belongs to.
public struct RefreshGrant: Sendable, Equatable {
    /// The token itself: 128 URL-safe characters. Stored nowhere; only its SHA-256 is kept.
    public let token: String
    /// Milliseconds since 1970.
    public let expiresAt: Double
    public let userID: String
    public let app: String
    /// The session (token family) the token belongs to.
    public let sessionID: String
    /// How the user signed in to start the session.
    public let provider: String
}
