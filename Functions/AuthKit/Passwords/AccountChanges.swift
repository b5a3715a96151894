import GatehouseJSON
import StoreCore

/// What a signed-in user changes on their own account (Supabase's `PUT /user`): the password,
/// the app's metadata, the address.
public struct AccountChanges: Sendable {
    /// The most metadata a user may carry, serialized.
    public static let maximumMetadataBytes = 16 * 1024

    public var password: String?
    /// Keys to set; a null value removes its key.
    public var metadata: [String: JSONValue]?
    public var email: String?

    public init(password: String? = nil, metadata: [String: JSONValue]? = nil, email: String? = nil) {
        self.password = password
        self.metadata = metadata
        self.email = email
    }
}

extension PasswordAccounts {
    /// Applies `changes` for the signed-in `bearer`:
    /// - a new password (the policy's, and not the current one) ends every other session;
    /// - metadata keys are merged;
    /// - a new address is mailed a link (returning to `redirectTo`) and changes only when it is
    ///   used; `AccountError.emailExists` when another user has it.
    /// The user as it now is.
    public func update(
        _ changes: AccountChanges, for bearer: AccessTokens.Bearer, redirectTo: String?
    ) async throws -> User {
        guard let user = try await sessions.users.user(id: bearer.userID) else { throw AccountError.userNotFound }
        var changed = user
        var writes: [WriteOperation] = []
        if let password = changes.password {
            writes.append(try await passwordWrite(password, for: user))
        }
        if let metadata = changes.metadata {
            changed.metadata = try Self.merge(metadata, into: user.metadata)
        }
        if let text = changes.email {
            try await requestEmailChange(
                to: try EmailAddress.required(text), for: user, app: bearer.app, redirectTo: redirectTo)
        }
        guard !writes.isEmpty || changed != user else { return user }
        let saved = try await sessions.users.save(changed, replacing: user, alsoWriting: writes)
        if changes.password != nil {
            try await sessions.refreshTokens.endSessions(userID: user.id, except: bearer.sessionID)
        }
        return saved
    }

    private func passwordWrite(_ password: String, for user: User) async throws -> WriteOperation {
        try policy.check(password, email: user.email.flatMap(EmailAddress.init))
        if let stored = try await PasswordCredentials.hash(userID: user.id, in: store),
            case .matches = try hasher.check(password, against: stored)
        {
            throw AccountError.samePassword
        }
        return PasswordCredentials.write(
            userID: user.id, hash: try hasher.hash(password).description, at: clock.now * 1000)
    }

    private func requestEmailChange(
        to email: EmailAddress, for user: User, app appID: String, redirectTo: String?
    ) async throws {
        guard email.value != user.email else { return }
        guard let app = try await sessions.apps.app(id: appID) else { throw SessionError.userNotFound }
        let redirect = try AppRedirect.resolve(redirectTo, app: app)
        if try await sessions.users.user(email: email) != nil { throw AccountError.emailExists }
        try await links.countSend(to: email)
        try await links.send(.emailChange, userID: user.id, email: email.value, app: app, redirectTo: redirect)
    }

    static func merge(
        _ changes: [String: JSONValue], into metadata: [String: JSONValue]
    ) throws(SignInError) -> [String: JSONValue] {
        var merged = metadata
        for (key, value) in changes {
            if value == .null { merged.removeValue(forKey: key) } else { merged[key] = value }
        }
        guard JSONValue.object(merged).serialized.utf8.count <= AccountChanges.maximumMetadataBytes else {
            throw .invalidField("data", "must be at most 16 KB of JSON")
        }
        return merged
    }
}
