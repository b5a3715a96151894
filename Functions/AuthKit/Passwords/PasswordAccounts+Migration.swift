import StoreCore

extension PasswordAccounts {
    /// The provider name a moved user's subject at the migration source is kept under.
    public static let migrationProvider = "cognito"

    /// Whether `user` (nil: no one has the address) has no usable Gatehouse password, so that a
    /// password sign-in asks the migration source.
    func lacksPassword(_ user: User?) async throws -> Bool {
        guard let user else { return true }
        return try await PasswordCredentials.hash(userID: user.id, in: store) == nil
    }

    /// With a migration source and an address (`identity`) that has no Gatehouse password
    /// (`found`: its user, if any), the user the source moved (`migrate`), its refusal recorded
    /// as a wrong password's; with one that has a password, nil after the source's decoy call
    /// about the same address, so that its time does not tell the two apart; without a source or
    /// for a number, nil.
    func migrated(
        _ identity: SignInIdentity, password: String, found: User?, app: App, sourceIP: String?
    ) async throws -> User? {
        guard let migration, case .email(let email) = identity else { return nil }
        guard try await lacksPassword(found) else {
            await migration.decoy(email: email)
            return nil
        }
        do {
            return try await migrate(
                email, password: password, found: found, from: migration, account: identity.providerEntry.subject,
                sourceIP: sourceIP)
        } catch AccountError.invalidCredentials {
            await refused(.wrongPassword, userID: found?.id, app: app)
            throw AccountError.invalidCredentials
        }
    }

    /// The password sign-in of `email`, which has no Gatehouse password (`found`: its user, if
    /// any), tried once at `source`, its try already counted at `account`: when the source vouches
    /// for the password and has verified `email` itself as the account's address, the password is
    /// stored as Gatehouse's own hash (on the condition that there is none yet) and the user,
    /// created when there was none (the source's subject as its id and `cognito` identity), is
    /// returned. Any other outcome is
    /// `AccountError.invalidCredentials` after a hash's work, as an unknown address is answered:
    /// the same call and the same work.
    func migrate(
        _ email: EmailAddress, password: String, found: User?, from source: any PasswordMigrationSource,
        account: String, sourceIP: String?
    ) async throws -> User {
        guard let moved = await source.account(email: email, password: password),
            Self.may(found, move: moved, as: email)
        else {
            hasher.burn(password)
            throw AccountError.invalidCredentials
        }
        let hash = try hasher.hash(password).description
        let now = (clock.now * 1000).rounded(.down)
        let stored: User?
        do {
            if let found {
                try await store.transactWrite([PasswordCredentials.firstWrite(userID: found.id, hash: hash, at: now)])
                stored = found
            } else {
                stored = try await create(email, moved: moved, hash: hash, at: now)
            }
        } catch StoreError.transactionCanceled {
            stored = nil
        }
        // A password or user stored meanwhile (another sign-in): this try checked none of it.
        guard let user = stored else { throw AccountError.invalidCredentials }
        try await attempts.succeeded(account: account, sourceIP: sourceIP)
        return user
    }

    /// Whether `moved`, signed in to as `email`, may become `found` (nil: a new user): only when
    /// its address at the source is `email` and the source verified it (a source that signs in
    /// by username may hold an account named after someone else's address); never a sign-up
    /// still waiting for its confirmation; never a user whose `cognito` identity is another
    /// subject (compared lower-cased, as the import keeps it), or who has none (a user who never
    /// came from the source: its first password is not the source's to give).
    static func may(_ found: User?, move moved: MigratedAccount, as email: EmailAddress) -> Bool {
        guard moved.emailVerified, moved.email == email else { return false }
        guard let found else { return true }
        guard !found.isPendingSignUp, let subject = found.providers[migrationProvider] else { return false }
        return subject.lowercased() == moved.subject.lowercased()
    }

    /// A new user for `email`, moved with its password: the source's subject as its id when it
    /// is a UUID (as `gatehouse users import --from-cognito` keeps it), its address confirmed,
    /// its `cognito` identity (the subject lower-cased, as the import keeps it), in one conditional
    /// transaction (`UserDirectory.importUser`); nil when the id, the address or the identity is
    /// taken meanwhile.
    private func create(
        _ email: EmailAddress, moved: MigratedAccount, hash: String, at now: Double
    ) async throws
        -> User?
    {
        let subject = moved.subject.lowercased()
        let id = UUIDText.canonical(subject) ?? RandomToken.uuid()
        let identity = SignInIdentity.provider(Self.migrationProvider, subject: subject)
        var user = User(
            id: id, email: email.value, name: moved.name,
            providers: ["email": email.value, Self.migrationProvider: subject], createdAt: now, updatedAt: now)
        user.indexKeys = [SignInIdentity.email(email).indexKey, identity.indexKey]
        let result = try await sessions.users.importUser(
            user, identities: [.email(email), identity], passwordHash: hash)
        return result == .imported ? user : nil
    }
}
