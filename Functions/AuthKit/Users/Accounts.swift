import StoreCore

/// What a signed-in user does with their own account: read it, delete it.
public struct Accounts: Sendable {
    private let store: any KeyValueStore
    public let users: UserDirectory

    public init(store: any KeyValueStore, clock: any StoreClock) {
        self.store = store
        users = UserDirectory(store: store, clock: clock)
    }

    /// The user, or `userNotFound`.
    public func profile(userID: String) async throws -> User {
        guard let user = try await users.user(id: userID) else { throw SessionError.userNotFound }
        return user
    }

    /// Ends every session of the user, then deletes the user and its index items (so the
    /// address can sign up again); `userNotFound` when there is no such user.
    public func delete(userID: String) async throws {
        try await RefreshTokens.endSessions(userID: userID, in: store)
        guard try await users.delete(id: userID) else { throw SessionError.userNotFound }
    }
}
