import GatehouseJSON
import StoreCore

/// Users and the index items that keep their email, phone and provider subjects unique.
///
/// An index item (`UserIndex`, keyed `email#ada@example.com`, `phone#+14155550100`,
/// `provider#apple#0012...`) points at
/// a user id and is written in the same transaction as the user, on the condition that it does
/// not exist yet. Two sign-ins of one new address at once therefore create one user: the second
/// transaction fails on the index and reads the first one's user instead. The user records the
/// keys it claimed (`User.indexKeys`), in the same transaction, so that deleting it deletes them
/// all without a scan of the index.
public struct UserDirectory: Sendable {
    public static let usersTable = "Users"
    public static let indexTable = "UserIndex"

    let store: any KeyValueStore
    let clock: any StoreClock

    public init(store: any KeyValueStore, clock: any StoreClock) {
        self.store = store
        self.clock = clock
    }

    /// The user with `id`, if there is one.
    public func user(id: String) async throws -> User? {
        try await store.get(Self.usersTable, key: ItemKey(.string(id))).flatMap(User.init(item:))
    }

    /// The transaction write that requires the user `id` to exist, writing nothing.
    public static func existence(of id: String) -> WriteOperation {
        .check(table: usersTable, key: ItemKey(.string(id)), condition: .itemExists)
    }

    /// The transaction write that requires the user `id` to exist and not to be banned at `now`
    /// (ms since 1970: its `bannedUntil` absent or before it), writing nothing: what every
    /// session's start checks, so a ban stored before the transaction refuses it.
    public static func signInCheck(of id: String, at now: Double) -> WriteOperation {
        .check(
            table: usersTable, key: ItemKey(.string(id)), condition: .itemExistsWithAttributeBelow("bannedUntil", now))
    }

    /// Why a session's start failed on `signInCheck`: `SessionError.banned` when the user is
    /// banned now, `SessionError.userNotFound` otherwise.
    func refusal(ofSignInBy id: String) async throws -> SessionError {
        guard let user = try await user(id: id) else { return .userNotFound }
        return isBanned(user) ? .banned : .userNotFound
    }

    /// Whether `user` is banned now (`User.isBanned`, on this directory's clock).
    func isBanned(_ user: User) -> Bool {
        user.isBanned(at: (clock.now * 1000).rounded(.down))
    }

    /// Why a code's redemption failed on `signInCheck`: `SessionError.banned` when its user is
    /// banned now, `SessionError.invalidCode` otherwise (the user is gone).
    func refusal(ofCodeFor id: String) async throws -> SessionError {
        try await refusal(ofSignInBy: id) == .banned ? .banned : .invalidCode
    }

    /// The user signed in as `identity`, if there is one.
    public func user(_ identity: SignInIdentity) async throws -> User? {
        guard let userID = try await indexedUserID(identity.indexKey) else { return nil }
        return try await user(id: userID)
    }

    /// The user with `email`, if there is one.
    public func user(email: EmailAddress) async throws -> User? {
        try await user(.email(email))
    }

    /// The user with `email`, created (with `name`, `metadata`, and `provider` as a provider
    /// without a separate subject) when there is none. `isNew` is true only for the call that
    /// created it.
    /// The caller has shown the address is the person's (a magic link): a password sign-up still
    /// waiting for its confirmation is confirmed, and its password dropped (`confirmEmail`).
    public func findOrCreate(
        email: EmailAddress, name: String? = nil, provider: String = "email", metadata: [String: JSONValue] = [:]
    ) async throws -> (user: User, isNew: Bool) {
        let found = try await findOrCreate(.email(email)) { id, now in
            User(
                id: id, email: email.value, name: name, providers: [provider: email.value], createdAt: now,
                updatedAt: now, metadata: metadata)
        }
        guard found.user.emailIsPending else { return found }
        return (try await confirmEmail(of: found.user), found.isNew)
    }

    /// The user with `phone`, created when there is none (phone OTP sign-in). The caller has
    /// shown the number is the person's (a texted code): a password sign-up still waiting for it
    /// is confirmed (`confirmPhone`), its password kept only when the code was the one texted for
    /// that sign-up alone (`signUpCode`, its user id: `PhoneCodes.verify`), and dropped otherwise.
    public func findOrCreate(
        phone: PhoneNumber, name: String? = nil, signUpCode: String? = nil
    ) async throws -> (user: User, isNew: Bool) {
        let found = try await findOrCreate(.phone(phone)) { id, now in
            User(
                id: id, phone: phone.value, name: name, providers: ["phone": phone.value], createdAt: now,
                updatedAt: now)
        }
        guard found.user.phoneIsPending else { return found }
        let password: SignUpPassword = signUpCode == found.user.id ? .keptByCode : .dropped
        return (try await confirmPhone(of: found.user, password: password), found.isNew)
    }

    /// The user with `subject` at `provider` (Sign in with Apple, OAuth). When there is none and
    /// `verifiedEmail` (an address the provider vouches for) belongs to a user, the provider is
    /// linked to that user; otherwise a user is created, with that address when no one has it.
    /// Pass an address only when the provider says it is verified: linking on an unverified one
    /// would hand its owner's account to whoever typed it. `contactEmail`, an address the client
    /// gave that the provider does not vouch for, goes only into a new user's metadata
    /// (`contactEmail`): never indexed, never linked on.
    public func findOrCreate(
        provider: String, subject: String, verifiedEmail: EmailAddress?, name: String? = nil,
        contactEmail: EmailAddress? = nil
    ) async throws -> (user: User, isNew: Bool) {
        let identity = SignInIdentity.provider(provider, subject: subject)
        if let existing = try await user(identity) { return (existing, false) }
        if let verifiedEmail, var owner = try await user(email: verifiedEmail) {
            // The provider vouches for the address: a password set by whoever signed it up
            // without confirming it goes (see `confirmEmail`).
            if owner.emailIsPending { owner = try await confirmEmail(of: owner) }
            return (try await link(identity, to: owner), false)
        }
        let others = verifiedEmail.map { [SignInIdentity.email($0)] } ?? []
        do {
            return try await findOrCreate(identity, alsoIndexing: others) { id, now in
                var user = User(
                    id: id, email: verifiedEmail?.value, name: name, providers: [provider: subject], createdAt: now,
                    updatedAt: now)
                if let contactEmail { user.metadata["contactEmail"] = .string(contactEmail.value) }
                return user
            }
        } catch StoreError.transactionCanceled(index: 2, _, _) {
            // The address was taken meanwhile: link to its owner instead.
            guard let verifiedEmail, let owner = try await user(email: verifiedEmail) else {
                throw SessionError.userNotFound
            }
            return (try await link(identity, to: owner), false)
        }
    }

    /// Finds the user of `identity`, or creates `make(id, now)` with its index items (the
    /// identity's, and `alsoIndexing`) in one transaction, each on the condition that it is new.
    /// Losing the race on the identity's index item means another sign-in created the user:
    /// that user is returned.
    private func findOrCreate(
        _ identity: SignInIdentity, alsoIndexing others: [SignInIdentity] = [],
        make: (String, Double) -> User
    ) async throws -> (user: User, isNew: Bool) {
        if let existing = try await user(identity) { return (existing, false) }
        var user = make(RandomToken.uuid(), (clock.now * 1000).rounded(.down))
        user.indexKeys = ([identity] + others).map(\.indexKey)
        let writes: [WriteOperation] =
            [.put(table: Self.usersTable, item: user.item, condition: .itemNotExists)]
            + ([identity] + others).map { Self.claim($0, for: user.id) }
        do {
            try await store.transactWrite(writes)
            return (user, true)
        } catch StoreError.transactionCanceled(index: 1, _, _) {
            guard let winner = try await self.user(identity) else { throw SessionError.userNotFound }
            return (winner, false)
        }
    }

    /// Adds `identity` to `user`'s providers (beside, never over, another subject at the same
    /// provider: `SignInIdentity.entryName`) and its index key to `user.indexKeys`, with its
    /// index item, in one transaction.
    private func link(_ identity: SignInIdentity, to user: User) async throws -> User {
        var linked = user
        linked.record(identity)
        linked.updatedAt = (clock.now * 1000).rounded(.down)
        do {
            try await store.transactWrite([
                Self.claim(identity, for: user.id),
                .put(
                    table: Self.usersTable, item: linked.item,
                    condition: .attributeEquals("updatedAt", .number(user.updatedAt))),
            ])
            return linked
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            // Another sign-in linked it first.
            guard let winner = try await self.user(identity) else { throw SessionError.userNotFound }
            return winner
        }
    }

    /// Deletes the user with `id`, its password and the index items that point at it in one
    /// transaction, so the address, number and provider accounts can sign up again; false when
    /// there was no such user. The index items are those the user claimed (`User.indexKeys`)
    /// and those its record names (all there is for a user stored before the keys were kept);
    /// each is deleted on the condition that it still points at the user, and the user on the
    /// condition that it is unchanged since read, so an identity linked meanwhile is not left
    /// behind: the deletion is then tried again on the user as it is now.
    public func delete(id: String) async throws -> Bool {
        var tries = 0
        while true {
            guard let user = try await user(id: id) else { return false }
            do {
                try await store.transactWrite(try await deletion(of: user))
                return true
            } catch StoreError.transactionCanceled where tries < 2 {
                tries += 1  // changed or deleted meanwhile: read it again
            }
        }
    }

    /// The writes that delete `user` as read: the user (unchanged since), its password, and
    /// each of its index items that still points at it.
    private func deletion(of user: User) async throws -> [WriteOperation] {
        var writes: [WriteOperation] = [
            .delete(
                table: Self.usersTable, key: ItemKey(.string(user.id)),
                condition: .attributeEquals("updatedAt", .number(user.updatedAt))),
            PasswordCredentials.removal(userID: user.id),
        ]
        let keys = Set(user.indexKeys).union(SignInIdentity.all(of: user).map(\.indexKey))
        for key in keys.sorted() where try await indexedUserID(key) == user.id {
            writes.append(
                .delete(
                    table: Self.indexTable, key: ItemKey(.string(key)),
                    condition: .attributeEquals("userId", .string(user.id))))
        }
        return writes
    }

    /// The write that claims `identity` for `userID`: its index item, on the condition that no
    /// user has it yet.
    static func claim(_ identity: SignInIdentity, for userID: String, over previous: String? = nil) -> WriteOperation {
        .put(
            table: indexTable, item: ["key": .string(identity.indexKey), "userId": .string(userID)],
            condition: previous.map { .attributeEquals("userId", .string($0)) } ?? .itemNotExists)
    }

    func indexedUserID(_ key: String) async throws -> String? {
        try await store.get(Self.indexTable, key: ItemKey(.string(key)))?["userId"]?.stringValue
    }
}
