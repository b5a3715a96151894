/// Sign-in with an ID token the app got from the OIDC provider itself (Supabase's
/// `grant_type=id_token`, e.g. Google's SDK on a phone): the token checked as the OAuth
/// callback checks the token of its code exchange (the same `ProviderTokenVerifier`: signature
/// by the provider's JWKS, issuer, audience the configured client id, times, `token_use`), the
/// nonce compared as supabase/auth compares it, the token spent once, then the user found or
/// created by the callback's rules (`UserDirectory.findOrCreate(provider:…)`: the provider's
/// subject, else an address the provider says is verified, else a new user; an unverified
/// address never joins an existing account).
public struct OIDCSignIn: Sendable {
    /// The provider's name, as the OAuth flow records its users (`OAuthFlow.providers`): the name
    /// a client sends as `provider`.
    public let provider: String
    private let idTokens: ProviderTokenVerifier
    private let sessions: SessionService
    private let used: UsedIdentityTokens

    public init(provider: String = "google", idTokens: ProviderTokenVerifier, sessions: SessionService) {
        self.provider = provider
        self.idTokens = idTokens
        self.sessions = sessions
        used = UsedIdentityTokens(store: sessions.store)
    }

    /// The user of `idToken` and a session for `app`. `nonce`, when given, must be the one whose
    /// hex SHA-256 the token carries; without one, the token must carry none (supabase/auth's
    /// rule). Refusals are `SignInError.tokenRefused` with the reason's code (`token_used` for
    /// a token that signed in before).
    public func signedIn(
        idToken: String, nonce: String?, app: String
    ) async throws -> (user: User, session: SessionResponse) {
        let identity = try await checked(idToken, nonce: nonce, app: app)
        let (account, isNew) = try await sessions.users.findOrCreate(
            provider: provider, subject: identity.subject, verifiedEmail: identity.verifiedEmail, name: identity.name)
        let code = try await sessions.codes.mint(app: app, user: account, provider: provider, isNewUser: isNew)
        return (account, try await sessions.exchange(code: code, app: app))
    }

    /// The provider's identity in `idToken`, checked and spent as `signedIn` checks and spends
    /// it, for linking to a user already signed in (`UserDirectory.attach`).
    public func identity(idToken: String, nonce: String?, app: String) async throws -> SignInIdentity {
        .provider(provider, subject: try await checked(idToken, nonce: nonce, app: app).subject)
    }

    /// `idToken` verified, its nonce compared, then spent.
    private func checked(_ idToken: String, nonce: String?, app: String) async throws -> OIDCIdentity {
        guard try await sessions.apps.app(id: app) != nil else { throw SignInError.unknownApp }
        let identity = try await idTokens.identity(idToken)
        try ProviderTokenVerifier.check(nonce: nonce, claim: identity.nonce, optional: true)
        try await used.spend(idToken, expiresAt: identity.expiresAt)
        return identity
    }
}
