import StoreCore

extension PasswordAccounts {
    /// Ends a PKCE flow: `authCode` (from a followed link's redirect, or any flow's
    /// `FlowCodes` code) taken for `app` with the client's `codeVerifier` (`FlowCodes.redeem`),
    /// then its user signed in. `FlowError.notFound` when the user is gone since. A sign-up's
    /// password held for this flow's challenge becomes usable (`PasswordCredentials.release`).
    public func signIn(
        authCode: String, codeVerifier: String, app: App, sourceIP: String?
    ) async throws -> (user: User, session: SessionResponse) {
        let grant = try await FlowCodes(store: store, clock: clock).redeem(
            code: authCode, verifier: codeVerifier, app: app.id, sourceIP: sourceIP)
        guard var user = try await sessions.users.user(id: grant.userID) else { throw FlowError.notFound }
        // Nothing is linked or released for a banned user.
        guard !sessions.users.isBanned(user) else { throw SessionError.banned }
        if let identity = grant.linking {
            // A link through the provider's pages ends here, with the verifier of the client that
            // asked for it (`IdentityLinkFlow`): never another user's identity.
            user = try await sessions.users.attach(identity, to: user)
        }
        if grant.provider == "email", let challenge = grant.codeChallenge {
            // A sign-up's link ends here with its own verifier: its password is the owner's.
            try await PasswordCredentials.release(userID: user.id, challenge: challenge, in: store)
        }
        // The flow's own way in: an emailed link's, or the provider's of `/authorize`.
        return try await startSession(for: user, app: grant.app, provider: grant.provider)
    }
}
