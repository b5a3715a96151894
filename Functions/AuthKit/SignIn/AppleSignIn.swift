/// Sign in with Apple, the native iOS flow: the app sends the identity token Apple gave it; the
/// user is found by Apple subject, else linked by an address Apple says is verified, else
/// created (with the name Apple sends only the first time); the session starts as `Exchange`
/// starts one.
public struct AppleSignIn: Sendable {
    private let identities: AppleIdentityVerifier
    private let sessions: SessionService

    public init(identities: AppleIdentityVerifier, sessions: SessionService) {
        self.identities = identities
        self.sessions = sessions
    }

    /// `Exchange`'s answer for the Apple user in `identityToken`, signed in to `app`.
    public func signIn(
        identityToken: String, user: String, nonce: String?, fullName: String?, app: String
    ) async throws -> SessionResponse {
        let identity = try await identities.verify(identityToken, user: user, nonce: nonce)
        let (account, isNew) = try await sessions.users.findOrCreate(
            provider: "apple", subject: identity.subject, verifiedEmail: identity.emailVerified ? identity.email : nil,
            name: fullName)
        let code = try await sessions.codes.mint(app: app, user: account, provider: "apple", isNewUser: isNew)
        return try await sessions.exchange(code: code, app: app)
    }
}
