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
    /// The S256 PKCE challenge of the client that started the sign-in, when it sent one: the
    /// code is then exchanged only with the matching verifier.
    public let codeChallenge: String?

    public init(
        app: String, userID: String, email: String?, name: String?, provider: String, isNewUser: Bool,
        expiresAt: Double, codeChallenge: String? = nil
    ) {
        self.app = app
        self.userID = userID
        self.email = email
        self.name = name
        self.provider = provider
        self.isNewUser = isNewUser
        self.expiresAt = expiresAt
        self.codeChallenge = codeChallenge
    }
}
