import JOSE
import StoreCore

/// The common end of every sign-in: an auth code exchanged for tokens, and refresh tokens
/// exchanged for fresh ones. Refreshing reloads the user, so a changed name shows up in the
/// next access token and a deleted user cannot refresh.
public struct SessionService: Sendable {
    public let users: UserDirectory
    public let codes: AuthCodes
    public let refreshTokens: RefreshTokens
    public let accessTokens: AccessTokens

    public init(store: any KeyValueStore, clock: any StoreClock, settings: SessionSettings, keys: SigningKeySet) {
        users = UserDirectory(store: store, clock: clock)
        codes = AuthCodes(store: store, clock: clock)
        refreshTokens = RefreshTokens(store: store, clock: clock, settings: settings)
        accessTokens = AccessTokens(keys: keys, settings: settings, clock: clock)
    }

    /// The service a function runs: settings from `environment` (`SessionSettings`), the
    /// signing keys from `SIGNING_KEYS` or `SIGNING_KEYS_FILE`, and the wall clock.
    public init(environment: [String: String], store: any KeyValueStore) throws {
        let settings = try SessionSettings(environment: environment)
        guard let location = SigningKeyLocation.fromEnvironment(environment) else {
            throw SigningKeyStoreError.notConfigured
        }
        self.init(
            store: store, clock: SystemStoreClock(), settings: settings,
            keys: try SigningKeyStore(location: location).load())
    }

    /// Consumes `code` (for `app`, when the caller is an authenticated app; any app otherwise)
    /// and starts a session.
    public func exchange(code: String, app: String? = nil) async throws -> SessionResponse {
        let grant = try await codes.consume(code, app: app)
        guard let user = try await users.user(id: grant.userID) else { throw SessionError.invalidCode }
        let refresh = try await refreshTokens.startSession(userID: user.id, app: grant.app, provider: grant.provider)
        return try response(
            user: user, app: grant.app, provider: grant.provider, refresh: refresh, isNewUser: grant.isNewUser)
    }

    /// Uses a refresh token: a new access token, and the refresh token to keep.
    public func refresh(token: String) async throws -> SessionResponse {
        let refresh = try await refreshTokens.refresh(token)
        guard let user = try await users.user(id: refresh.userID) else {
            try await refreshTokens.endSessions(userID: refresh.userID)
            throw RefreshError.invalidRefreshToken
        }
        return try response(
            user: user, app: refresh.app, provider: refresh.provider, refresh: refresh, isNewUser: false)
    }

    private func response(
        user: User, app: String, provider: String, refresh: RefreshGrant, isNewUser: Bool
    ) throws -> SessionResponse {
        let access = try accessTokens.issue(user: user, app: app, provider: provider)
        return SessionResponse(
            accessToken: access.token, accessTokenExpiresAt: access.expiresAt, refreshToken: refresh.token,
            refreshTokenExpiresAt: refresh.expiresAt,
            user: .init(id: user.id, email: user.email, name: user.name, provider: provider, isNewUser: isNewUser))
    }
}
