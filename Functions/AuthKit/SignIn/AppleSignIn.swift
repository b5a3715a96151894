/// Sign in with Apple, the native iOS flow: the app sends the identity token Apple gave it; the
/// user is found by Apple subject, else linked by an address Apple says is verified, else
/// created (with the name Apple sends only the first time); the session starts as `Exchange`
/// starts one. A token starts one session: its use is remembered until it expires
/// (`UsedIdentityTokens`), so a token copied from a log or a device cannot sign in again.
public struct AppleSignIn: Sendable {
    private let identities: AppleIdentityVerifier
    private let sessions: SessionService
    private let used: UsedIdentityTokens

    public init(identities: AppleIdentityVerifier, sessions: SessionService) {
        self.identities = identities
        self.sessions = sessions
        used = UsedIdentityTokens(store: sessions.store)
    }

    /// `Exchange`'s answer for the Apple user in `identityToken`, signed in to `app`: the token
    /// checked (with the nonce, unless the app opted out: `App.appleNonceOptional`; its subject
    /// against `user` when the app sent one), then spent. `contactEmail`, an address the app
    /// sent beside the token, is kept only for a new user whose token has none, unverified: it
    /// never links an account (`UserDirectory.findOrCreate(provider:…)`).
    public func signIn(
        identityToken: String, user: String?, nonce: String?, fullName: String?, contactEmail: EmailAddress? = nil,
        app: String
    ) async throws -> SessionResponse {
        try await signedIn(
            identityToken: identityToken, user: user, nonce: nonce, fullName: fullName, contactEmail: contactEmail,
            app: app
        ).session
    }

    /// `signIn`'s user and session, for a caller that answers in its own shape (Supabase's
    /// `grant_type=id_token`, which sends no `user`: the token's subject is the user).
    public func signedIn(
        identityToken: String, user: String?, nonce: String?, fullName: String?, contactEmail: EmailAddress? = nil,
        app: String
    ) async throws -> (user: User, session: SessionResponse) {
        let identity = try await checked(identityToken, user: user, nonce: nonce, app: app)
        let (account, isNew) = try await sessions.users.findOrCreate(
            provider: "apple", subject: identity.subject, verifiedEmail: identity.emailVerified ? identity.email : nil,
            name: fullName, contactEmail: identity.email == nil ? contactEmail : nil)
        let code = try await sessions.codes.mint(app: app, user: account, provider: "apple", isNewUser: isNew)
        return (account, try await sessions.exchange(code: code, app: app))
    }

    /// The Apple identity in `identityToken`, checked and spent as `signedIn` checks and spends
    /// it, for linking to a user already signed in (`UserDirectory.attach`).
    public func identity(identityToken: String, nonce: String?, app: String) async throws -> SignInIdentity {
        .provider("apple", subject: try await checked(identityToken, user: nil, nonce: nonce, app: app).subject)
    }

    /// `identityToken` verified for `app` (with the nonce, unless the app opted out), then spent.
    private func checked(
        _ identityToken: String, user: String?, nonce: String?, app: String
    ) async throws -> AppleIdentity {
        guard let registered = try await sessions.apps.app(id: app) else { throw SignInError.unknownApp }
        let identity = try await identities.verify(
            identityToken, user: user, nonce: nonce, nonceOptional: registered.appleNonceOptional)
        try await used.spend(identityToken, expiresAt: identity.expiresAt)
        return identity
    }
}
