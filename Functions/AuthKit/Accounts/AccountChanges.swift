import GatehouseJSON
import StoreCore

/// What a signed-in user changes on their own account (Supabase's `PUT /user`): the password,
/// the app's metadata, the address, the number.
public struct AccountChanges: Sendable {
    /// The most metadata a user may carry, serialized.
    public static let maximumMetadataBytes = 16 * 1024

    public var password: String?
    /// Keys to set; a null value removes its key.
    public var metadata: [String: JSONValue]?
    public var email: String?
    /// A new number, confirmed by the code texted to it (`PhoneChanges`).
    public var phone: PhoneNumber?
    /// The nonce `/reauthenticate` mailed, for a password or address change from a session that
    /// is no longer recent (`Reauthentication`).
    public var nonce: String?

    public init(
        password: String? = nil, metadata: [String: JSONValue]? = nil, email: String? = nil,
        phone: PhoneNumber? = nil, nonce: String? = nil
    ) {
        self.password = password
        self.metadata = metadata
        self.email = email
        self.phone = phone
        self.nonce = nonce
    }
}

extension PasswordAccounts {
    /// Applies `changes` to `user`, the signed-in `bearer`'s (as the caller read it: the save is
    /// conditional on it, so a change made since is not overwritten):
    /// - a new password, address or number needs an `aal2` session when the user has a verified
    ///   second factor (`Factors.requireSecondFactor`);
    /// - a new password or address needs a recent sign-in or the mailed nonce
    ///   (`Reauthentication`), checked before anything else, but for an anonymous user, which sets
    ///   no password (`passwordNeedsAddress`) and becomes permanent when a new address is
    ///   confirmed;
    /// - a new password (the policy's, and not the current one) ends every other session;
    /// - metadata keys are merged;
    /// - a new address changes only once both addresses confirm it (`EmailChanges`); the
    ///   answer is the same whether or not another user has it;
    /// - a new number changes once the code texted to it is typed (`PhoneChanges`), the same
    ///   answer whether or not another user has it; the user's own number changes nothing.
    /// The user as it now is.
    public func update(
        _ changes: AccountChanges, to user: User, for bearer: AccessTokens.Bearer, redirectTo: String?,
        sourceIP: String?
    ) async throws -> User {
        guard user.id == bearer.userID else { throw AccountError.userNotFound }
        // An anonymous user sets a password once its address is confirmed (`AnonymousSignIn`).
        if user.isAnonymous, changes.password != nil { throw AccountError.passwordNeedsAddress }
        let newPhone = changes.phone.flatMap { $0.value == user.phone ? nil : $0 }
        if changes.password != nil || changes.email.map({ $0 != user.email }) == true || newPhone != nil {
            // Before the nonce is checked, so a refused change spends none.
            try await Factors.requireSecondFactor(userID: user.id, sessionAAL: bearer.sessionAAL, in: store)
            try await reauthentication.require(bearer, of: user, nonce: changes.nonce, sourceIP: sourceIP)
        }
        var changed = user
        var writes: [WriteOperation] = []
        if let password = changes.password {
            writes.append(try await passwordWrite(password, for: user))
        }
        if let metadata = changes.metadata {
            changed.metadata = try Self.merge(metadata, into: user.metadata)
        }
        if let text = changes.email {
            let email = try EmailAddress.required(text)
            guard let app = try await sessions.apps.app(id: bearer.app) else { throw SessionError.userNotFound }
            let redirect = try AppRedirect.resolve(redirectTo, app: app)
            try await later(
                try await emailChanges.request(to: email, for: user, app: app, redirectTo: redirect, sourceIP: sourceIP)
            )
        }
        if let newPhone {
            guard let phoneChanges else { throw SignInError.invalidField("phone", "phone codes are off") }
            try await later(
                try await phoneChanges.request(to: newPhone, for: user, app: bearer.app, sourceIP: sourceIP))
        }
        guard !writes.isEmpty || changed != user else { return user }
        let saved = try await sessions.users.save(changed, replacing: user, alsoWriting: writes)
        if changes.password != nil {
            try await sessions.refreshTokens.endSessions(userID: user.id, except: bearer.sessionID)
            await sessions.audit.record(.passwordChange, userID: user.id, app: bearer.app)
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
