/// What an auth code stands for: a signed-in user, for one app.
public struct AuthCodeGrant: Sendable, Equatable {
    public let app: String
    public let userID: String
    public let email: String?
    public let name: String?
    public let provider: String
    public let isNewUser: Bool
    /// Milliseconds since 1970.
    public let expiresAt: Double

    public init(
        app: String, userID: String, email: String?, name: String?, provider: String, isNewUser: Bool,
        expiresAt: Double
    ) {
        self.app = app
        self.userID = userID
        self.email = email
        self.name = name
        self.provider = provider
        self.isNewUser = isNewUser
        self.expiresAt = expiresAt
    }
}
