/// Linking a provider's identity to the signed-in user (Supabase's `linkIdentityWithIdToken`):
/// the bearer's user, then a recent sign-in (`Reauthentication`: a linked identity is a new way
/// to sign in, as a new password is, so a stolen access token alone must not add one; an
/// anonymous user, whose session is all it has, is not asked), then the identity checked, then
/// linked (`UserDirectory.attach`: never another user's) and a new session of the same user
/// started. It never signs in the identity's own user. Unlinking asks the same recent sign-in,
/// and ends the sessions the identity started. Both need an `aal2` session once the user has a
/// verified second factor (`Factors.requireSecondFactor`), as a new password does.
public struct IdentityLinks: Sendable {
    let sessions: SessionService
    let reauthentication: Reauthentication

    public init(sessions: SessionService, reauthentication: Reauthentication) {
        self.sessions = sessions
        self.reauthentication = reauthentication
    }

    /// Links the identity `identity` checks (and spends), run only once the caller passed, to
    /// `bearer`'s user in `app`, signed in with `provider`; the user as linked and its new session.
    public func link(
        for bearer: AccessTokens.Bearer, app: String, provider: String, sourceIP: String?,
        identity: () async throws -> SignInIdentity
    ) async throws -> (user: User, session: SessionResponse) {
        guard let user = try await sessions.users.user(id: bearer.userID) else { throw AccountError.userNotFound }
        try await Factors.requireSecondFactor(userID: user.id, sessionAAL: bearer.sessionAAL, in: sessions.store)
        try await reauthentication.require(bearer, of: user, nonce: nil, sourceIP: sourceIP)
        let linked = try await sessions.users.attach(try await identity(), to: user)
        return (linked, try await sessions.start(user: linked, app: app, provider: provider))
    }

    /// Begins linking `provider`'s identity through its pages (`IdentityLinkFlow`) for
    /// `bearer`'s user in `app`, after the same recent sign-in: a handle for
    /// `/auth/v1/authorize?link=`, returning to `redirectTo` (the app's, else
    /// `redirectNotAllowed`) with a code that only the verifier of `challenge` exchanges.
    public func startLink(
        for bearer: AccessTokens.Bearer, app: App, provider: String, redirectTo: String?, challenge: String,
        sourceIP: String?
    ) async throws -> String {
        guard let user = try await sessions.users.user(id: bearer.userID) else { throw AccountError.userNotFound }
        try await Factors.requireSecondFactor(userID: user.id, sessionAAL: bearer.sessionAAL, in: sessions.store)
        try await reauthentication.require(bearer, of: user, nonce: nil, sourceIP: sourceIP)
        let target = try AppRedirect.resolve(redirectTo, app: app)
        return try await IdentityLinkFlow(store: sessions.users.store, clock: sessions.users.clock).handle(
            for: .init(userID: user.id, app: app.id, provider: provider, challenge: challenge, redirectTo: target))
    }

    /// Unlinks the provider identity `user.providers` records under `entry` from `user`,
    /// `bearer`'s (`UserDirectory.detach`, with its refusals), once the session passes the same
    /// check as linking; then ends every session that identity's provider started, so that an
    /// identity unlinked because it was lost no longer signs anything in.
    public func unlink(
        _ entry: String, of user: User, for bearer: AccessTokens.Bearer, sourceIP: String?
    ) async throws {
        guard user.id == bearer.userID else { throw AccountError.userNotFound }
        try await Factors.requireSecondFactor(userID: user.id, sessionAAL: bearer.sessionAAL, in: sessions.store)
        try await reauthentication.require(bearer, of: user, nonce: nil, sourceIP: sourceIP)
        _ = try UserDirectory.detachable(entry, of: user)
        // Its sessions first: if this fails, the identity is still there to unlink again.
        try await sessions.refreshTokens.endSessions(userID: user.id, method: SignInIdentity.base(of: entry))
        _ = try await sessions.users.detach(entry, from: user)
        // And any a sign-in with it started meanwhile.
        try await sessions.refreshTokens.endSessions(userID: user.id, method: SignInIdentity.base(of: entry))
    }
}
