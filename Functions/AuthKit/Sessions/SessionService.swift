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
    public let apps: AppRegistry
    /// Where sign-ins and account changes are recorded: off for a service built by hand (the
    /// tests'), unless given one; a function's reads its settings (`AuditLog(environment:)`).
    public var audit: AuditLog
    let store: any KeyValueStore

    public init(
        store: any KeyValueStore, clock: any StoreClock, settings: SessionSettings, keys: SigningKeySet,
        hook: AccessTokenHook? = nil
    ) {
        users = UserDirectory(store: store, clock: clock)
        codes = AuthCodes(store: store, clock: clock)
        refreshTokens = RefreshTokens(store: store, clock: clock, settings: settings)
        accessTokens = AccessTokens(keys: keys, settings: settings, clock: clock, hook: hook)
        apps = AppRegistry(store: store)
        audit = AuditLog(store: store, clock: clock, isEnabled: false)
        self.store = store
    }

    /// The service a function runs: settings from `environment` (`SessionSettings`), the
    /// signing keys from `SIGNING_KEYS` or `SIGNING_KEYS_FILE`, the access-token hook
    /// `ACCESS_TOKEN_HOOK` names (invoked through `functions`; named without one, the cold start
    /// fails), and the wall clock.
    public init(
        environment: [String: String], store: any KeyValueStore, functions: (any FunctionInvoker)? = nil
    ) throws {
        let settings = try SessionSettings(environment: environment)
        guard let location = SigningKeyLocation.fromEnvironment(environment) else {
            throw SigningKeyStoreError.notConfigured
        }
        self.init(
            store: store, clock: SystemStoreClock(), settings: settings,
            keys: try SigningKeyStore(location: location).load(),
            hook: try AccessTokenHook(environment: environment, invoker: functions))
        audit = try AuditLog(environment: environment, store: store, clock: SystemStoreClock())
    }

    /// Consumes `code`, which the public client of `app` presents, and starts a session.
    ///
    /// A code bound to a PKCE challenge (`AuthCodeGrant.codeChallenge`) needs the matching
    /// `codeVerifier`: without it, the code is refused as an unknown one and spent, so that an
    /// app that intercepted it on its way back (another app on the phone registering the same
    /// URL scheme) cannot use it, and the rightful app's later try fails loudly.
    ///
    /// A code made for another app, or for an app whose codes are not redeemed publicly (it
    /// signs in through its backend), is refused exactly as an unknown code is, and spent, so
    /// that it cannot be probed. One transaction consumes the code, requires its user and its
    /// app to still exist and starts the session: the code is spent exactly when a session
    /// starts, and however many exchanges of it race, one wins. The access token carries the
    /// name and address the code was minted with, a minute ago at most.
    public func exchange(code: String, app: String, codeVerifier: String? = nil) async throws -> SessionResponse {
        guard let grant = try await codes.peek(code) else { throw SessionError.invalidCode }
        guard grant.app == app, try await apps.app(id: app)?.redeem.contains(.public) == true,
            grant.isRedeemable(with: codeVerifier)
        else {
            try await codes.burn(code)
            throw SessionError.invalidCode
        }
        let (refresh, sessionWrites) = refreshTokens.sessionStart(
            userID: grant.userID, app: grant.app, provider: grant.provider, secondFactor: grant.secondFactor,
            startedBy: grant.secondFactor?.signedInBy)
        // A session starting at aal2 needs its factor still verified (a passkey still there): one
        // removed since the code was minted proves nothing.
        let proof = grant.secondFactor.map { [$0.stillHolds(userID: grant.userID)] } ?? []
        do {
            try await store.transactWrite(
                [
                    AuthCodes.consumption(of: code, app: grant.app),
                    UserDirectory.signInCheck(of: grant.userID, at: (users.clock.now * 1000).rounded(.down)),
                    AppRegistry.existence(of: grant.app),
                ] + proof + sessionWrites)
        } catch StoreError.transactionCanceled(index: 1, _, _) {
            // Its user removed since, or banned: the code stays unspent (it expires).
            throw try await users.refusal(ofCodeFor: grant.userID)
        } catch StoreError.transactionCanceled(index: let index, _, _) where index < 3 + proof.count {
            // Consumed by a concurrent exchange, its user or app removed since, or its factor.
            throw SessionError.invalidCode
        }
        await audit.record(
            grant.isNewUser ? .signUp : .signIn, userID: grant.userID, app: grant.app,
            method: AuditSignInMethod(provider: grant.provider))
        return try await response(
            .init(
                id: grant.userID, email: grant.email, name: grant.name, provider: grant.provider,
                isNewUser: grant.isNewUser, phone: grant.phone, appMetadata: grant.appMetadata,
                userMetadata: grant.userMetadata),
            refresh: refresh)
    }

    /// The limit of every refresh, whichever route it comes by (`POST /auth/refresh`, Supabase's
    /// `grant_type=refresh_token`): 10 a minute per user, counted before the token is used.
    public static let refreshesPerUser = RateLimit(name: "refresh:user", limit: 10, window: 60)

    /// Uses a refresh token: a new access token, and the refresh token to keep; over
    /// `refreshesPerUser`, `SignInError.rateLimited` (429, `Retry-After`) with the token untouched.
    public func refresh(token: String) async throws -> SessionResponse {
        try await refreshed(token: token).session
    }

    /// `refresh`, with the user it signs in as read for it (Supabase's answer shows the whole
    /// user), under the same limit. The user and the session's row are read in one round trip
    /// after the token is used: three store calls in all when it rotates.
    ///
    /// With an access-token hook, the access token is made (the hook run) before the token is
    /// used, from what the token's session and user are then: a hook that fails answers no token
    /// and leaves the refresh token unused, so the client's retry works, however late. That
    /// costs a round trip more, only with a hook.
    public func refreshed(token: String) async throws -> (user: User, session: SessionResponse) {
        let early = accessTokens.hook == nil ? nil : try await accessTokenBeforeRefresh(of: token)
        let (refresh, item) = try await refreshTokens.refresh(
            token, limit: Self.refreshesPerUser, alongWith: UserDirectory.usersTable)
        guard let user = item.flatMap(User.init(item:)) else {
            try await refreshTokens.endSessions(userID: refresh.userID)
            throw RefreshError.invalidRefreshToken
        }
        // Banned since its session started (a ban ends its sessions too: this is the race).
        guard !users.isBanned(user) else {
            try await refreshTokens.endSessions(userID: refresh.userID)
            throw SessionError.banned
        }
        // Made for this session (a race that moved the token to another is not possible: a
        // token's session never changes); made now when the preview found nothing.
        let access = early.flatMap { $0.sessionID == refresh.sessionID ? $0.access : nil }
        let session = try await response(
            .init(user, provider: refresh.provider), refresh: refresh, refreshing: true, access: access)
        return (user, session)
    }

    /// The access token a refresh of `token` answers with, made before the token is used
    /// (`RefreshTokens.preview`), and its session's id; nil when the token, its session or its
    /// user is not there (the refresh then refuses it, or makes the token itself).
    private func accessTokenBeforeRefresh(
        of token: String
    ) async throws -> (sessionID: String, access: (token: String, expiresAt: Double))? {
        guard let (state, item) = try await refreshTokens.preview(token, alongWith: UserDirectory.usersTable),
            let user = item.flatMap(User.init(item:)), user.id == state.userID
        else { return nil }
        let access = try await accessTokens.issue(
            for: .init(user, provider: state.method), session: state, refreshing: true)
        return (state.sessionID, access)
    }

    /// The answer of a session that `refresh` was handed out for: an access token made from its
    /// session's state (`AccessTokens`), the refresh token, and `user`. A failed access-token
    /// hook answers no token (`AccessTokenHookError`); a sign-in's session rows stay written
    /// (unused, they expire); a refresh runs the hook before its token is used (`refreshed`).
    /// `access`: the token already made.
    func response(
        _ user: SessionResponse.UserSummary, refresh: RefreshGrant, refreshing: Bool = false,
        access made: (token: String, expiresAt: Double)? = nil
    ) async throws -> SessionResponse {
        let access: (token: String, expiresAt: Double)
        if let made {
            access = made
        } else {
            access = try await accessTokens.issue(for: user, session: refresh.session, refreshing: refreshing)
        }
        return SessionResponse(
            accessToken: access.token, accessTokenExpiresAt: access.expiresAt, refreshToken: refresh.token,
            refreshTokenExpiresAt: refresh.expiresAt, user: user, expiresIn: accessTokens.settings.accessTokenLifetime)
    }
}
