import GatehouseJSON
import StoreCore

extension UserAdmin {
    /// A new user with `fields` (an address or a number at least), written with its index items
    /// and password in one transaction that requires both to be free (`emailExists`,
    /// `phoneExists`). An address or number not confirmed stays so until a link or code confirms
    /// it (which drops a password set before, as a sign-up's), and does not expire.
    public func create(_ fields: AdminUserFields, policy: PasswordPolicy) async throws -> User {
        let email = try fields.email.flatMap { $0.isEmpty ? nil : $0 }.map(Self.email)
        let phone = try fields.phone.flatMap { $0.isEmpty ? nil : $0 }.map(Self.phone)
        guard email != nil || phone != nil else {
            throw UserAdminError.invalid("Cannot create a user without either an email or phone")
        }
        let now = self.now
        var providers: [String: String] = [:]
        if let email { providers["email"] = email.value }
        if let phone { providers["phone"] = phone.value }
        var user = User(
            id: RandomToken.uuid(), email: email?.value, phone: phone?.value, providers: providers, createdAt: now,
            updatedAt: now, metadata: AdminUserFields.merged([:], fields.userMetadata))
        user.appMetadata = Self.appMetadata([:], fields.appMetadata)
        user.emailConfirmedAt = fields.emailConfirm == true && email != nil ? now : nil
        if phone != nil {
            user.phoneIsPending = fields.phoneConfirm != true
            user.phoneConfirmedAt = fields.phoneConfirm == true ? now : nil
        }
        user.bannedUntil = try ban(fields.ban, from: nil)
        let hash = try fields.password.map { password in
            try policy.check(password, email: email)
            return try hasher.hash(password).description
        }
        let identities = [email.map(SignInIdentity.email), phone.map(SignInIdentity.phone)].compactMap { $0 }
        switch try await users.importUser(user, identities: identities, passwordHash: hash) {
        case .imported:
            await recorded(.adminUserCreated, userID: user.id)
            return try await self.user(id: user.id)
        case .taken(.phone, _): throw UserAdminError.phoneExists
        case .taken: throw UserAdminError.emailExists
        case .alreadyPresent, .passwordPresent, .otherPresent:
            throw UserAdminError.invalid("the new user's id was taken; try again")
        }
    }

    /// The user `id` with `fields` changed: metadata merged, a confirmation set, a password
    /// replaced (the user's sessions stay), a ban set or lifted (a new ban ends every session).
    /// A new address or number is `UserAdminError.unsupported`: it changes by the user's own
    /// confirmed change (`PUT /user`), or delete and create.
    public func updateUser(id: String, _ fields: AdminUserFields, policy: PasswordPolicy) async throws -> User {
        var current = try await user(id: id)
        if let email = fields.email, !email.isEmpty, try Self.email(email).value != current.email {
            throw UserAdminError.unsupported("changing a user's email address by the admin API")
        }
        if let phone = fields.phone, !phone.isEmpty, try Self.phone(phone).value != current.phone {
            throw UserAdminError.unsupported("changing a user's phone number by the admin API")
        }
        if let password = fields.password {
            try policy.check(password, email: current.email.flatMap { EmailAddress($0) })
        }
        if fields.emailConfirm == true, current.emailIsPending { current = try await users.confirmEmail(of: current) }
        if fields.phoneConfirm == true, current.phoneIsPending { current = try await users.confirmPhone(of: current) }
        if let password = fields.password {
            try await store.transactWrite([
                UserDirectory.existence(of: id),
                PasswordCredentials.write(userID: id, hash: try hasher.hash(password).description, at: now),
            ])
        }
        let bannedUntil = try ban(fields.ban, from: current.bannedUntil)
        let updated = try await change(id: id) { user in
            user.metadata = AdminUserFields.merged(user.metadata, fields.userMetadata)
            user.appMetadata = Self.appMetadata(user.appMetadata, fields.appMetadata)
            user.bannedUntil = bannedUntil
        }
        if case .forSeconds = fields.ban { try await RefreshTokens.endSessions(userID: id, in: store) }
        await recorded(.adminUserUpdated, userID: id)
        switch fields.ban {
        case .forSeconds: await recorded(.ban, userID: id)
        case .lift: await recorded(.unban, userID: id)
        case nil: break
        }
        return updated
    }

    /// The `bannedUntil` a ban change leaves (ms), from `current`.
    func ban(_ change: AdminUserFields.Ban?, from current: Double?) throws -> Double? {
        switch change {
        case nil: return current
        case .lift: return nil
        case .forSeconds(let seconds):
            guard seconds > 0, seconds < 1e11 else { throw UserAdminError.invalid("ban_duration must be positive") }
            return now + (seconds * 1000).rounded(.down)
        }
    }

    static func appMetadata(_ current: [String: JSONValue], _ changes: [String: JSONValue]?) -> [String: JSONValue] {
        var changes = changes
        changes?["provider"] = nil
        changes?["providers"] = nil
        return AdminUserFields.merged(current, changes)
    }

    static func email(_ text: String) throws -> EmailAddress {
        guard let email = EmailAddress(text) else {
            throw UserAdminError.invalid("Unable to validate email address: invalid format")
        }
        return email
    }

    static func phone(_ text: String) throws -> PhoneNumber {
        guard let phone = PhoneNumber(text.hasPrefix("+") ? text : "+" + text) else {
            throw UserAdminError.invalid("Invalid phone number format (E.164 required)")
        }
        return phone
    }
}
