/// A refresh token handed to a client, and the session it belongs to.
public struct RefreshGrant: Sendable, Equatable {
    /// The token itself: 128 URL-safe characters. Stored nowhere; only its SHA-256 is kept.
    public let token: String
    /// Milliseconds since 1970.
    public let expiresAt: Double
    /// The session (token family) the token belongs to, as its row holds it.
    public let session: SessionState

    public var userID: String { session.userID }
    public var app: String { session.app }
    public var sessionID: String { session.sessionID }
    /// How the user signed in to start the session.
    public var provider: String { session.method }
}
