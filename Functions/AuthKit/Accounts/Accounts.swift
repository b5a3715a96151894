import GatehouseJSON
import StoreCore

/// What a signed-in user does with their own account: read it, delete it.
public struct Accounts: Sendable {
    let store: any KeyValueStore
    private let clock: any StoreClock
    public let users: UserDirectory
    /// Where a user's deletion of their own account is recorded; nil: nowhere.
    public var audit: AuditLog?

    public init(store: any KeyValueStore, clock: any StoreClock) {
        self.store = store
        self.clock = clock
        users = UserDirectory(store: store, clock: clock)
    }

    /// The user, or `userNotFound`.
    public func profile(userID: String) async throws -> User {
        guard let user = try await users.user(id: userID) else { throw SessionError.userNotFound }
        return user
    }

    /// Ends every session of the user, then deletes the user and its index items (so the
    /// address can sign up again), then its second factors; `userNotFound` when there is no
    /// such user.
    public func delete(userID: String) async throws {
        try await RefreshTokens.endSessions(userID: userID, in: store)
        guard try await users.delete(id: userID) else { throw SessionError.userNotFound }
        try await Factors.removeAll(userID: userID, in: store)
        try await Passkeys.removeAll(userID: userID, in: store)
    }

    /// `delete`, asked from the session `sessionID` by a token issued at `tokenAAL` (the
    /// authorizer's context's `aal`): only when it started less than `window`
    /// seconds ago (a recent sign-in, as a password or address change asks, so that a stolen
    /// day-old token cannot delete the account); else `AccountError.reauthenticationNeeded`
    /// (403 `reauthentication_required`, `userNotFound` when there is no such user) and nothing
    /// changes. A user with a verified second factor deletes only from a session that verified
    /// it (`aal2`): else `AccountError.secondFactorNeeded` (403 `aal2_required`).
    public func delete(
        userID: String, fromSession sessionID: String?, tokenAAL: String?, recentWithin window: Double
    ) async throws {
        guard let session = try await session(sessionID, of: userID),
            let started = session["createdAt"]?.numberValue, clock.now - started / 1000 < window
        else {
            guard try await users.user(id: userID) != nil else { throw SessionError.userNotFound }
            throw AccountError.reauthenticationNeeded
        }
        try await Factors.requireSecondFactor(
            userID: userID, sessionAAL: SessionState.assurance(row: session["aal"]?.stringValue, token: tokenAAL),
            in: store)
        try await deleteOwn(userID: userID)
    }

    /// `delete`, asked from the session `sessionID` with `nonce`, the six-digit nonce
    /// `/auth/v1/reauthenticate` mailed to the user (checked by `nonces`, from `sourceIP`), or
    /// without one: a recent session or the nonce, as a password change asks. A wrong, used or
    /// expired nonce is `AccountError.reauthenticationNotValid` and nothing changes.
    public func delete(
        userID: String, fromSession sessionID: String?, tokenAAL: String?, recentWithin window: Double,
        nonce: String?, checkedBy nonces: ReauthenticationNonces, sourceIP: String?
    ) async throws {
        guard let nonce else {
            return try await delete(userID: userID, fromSession: sessionID, tokenAAL: tokenAAL, recentWithin: window)
        }
        guard try await users.user(id: userID) != nil else { throw SessionError.userNotFound }
        // The session must still be live, read here as on the recent-session path: the
        // authorizer's answer may be cached a while after it ended.
        guard let session = try await session(sessionID, of: userID) else { throw AccountError.sessionEnded }
        // Before the nonce is spent: a session below aal2 of a user with a second factor is
        // refused either way.
        try await Factors.requireSecondFactor(
            userID: userID, sessionAAL: SessionState.assurance(row: session["aal"]?.stringValue, token: tokenAAL),
            in: store)
        try await nonces.consume(nonce, userID: userID, sourceIP: sourceIP)
        try await deleteOwn(userID: userID)
    }

    /// `delete`, by the user themself: recorded (`AuditAction.accountDeleted`).
    private func deleteOwn(userID: String) async throws {
        try await delete(userID: userID)
        await audit?.record(.accountDeleted, userID: userID, app: nil)
    }

    /// The live session `sessionID` of `userID`, if there is one.
    private func session(_ sessionID: String?, of userID: String) async throws -> Item? {
        guard let sessionID, !sessionID.isEmpty else { return nil }
        return try await store.get(
            RefreshTokens.sessionsTable, key: RefreshTokens.sessionKey(userID: userID, sessionID: sessionID))
    }
}
