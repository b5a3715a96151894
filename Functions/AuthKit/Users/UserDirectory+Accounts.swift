import GatehouseJSON
import StoreCore

extension UserDirectory {
    /// How long an unconfirmed sign-up lives by default: a day (`PENDING_SIGNUP_SECONDS`).
    public static let pendingLifetime: Double = 86400

    /// Creates a user whose address waits for confirmation, with its password hash, in one
    /// transaction. The user, its index item and its password carry the sign-up's expiry as
    /// their `ttl`, so an unconfirmed account is gone after `lifetime` seconds.
    ///
    /// When the address belongs to a sign-up still waiting for confirmation, that attempt is
    /// replaced: its user and password go and a new user, with a new id, takes the address in
    /// the same transaction, so the links mailed for the earlier attempt no longer work and
    /// the newest password is the only one. Nil (and nothing written) when a confirmed user has
    /// the address.
    public func createPending(
        email: EmailAddress, name: String?, metadata: [String: JSONValue], passwordHash: String,
        lifetime: Double = UserDirectory.pendingLifetime, signUpChallenge: String? = nil
    ) async throws -> User? {
        let user = User.pendingSignUp(
            email: email, name: name, metadata: metadata, at: (clock.now * 1000).rounded(.down), lifetime: lifetime)
        return try await createPending(
            user, identity: .email(email), passwordHash: passwordHash, signUpChallenge: signUpChallenge
        ) { $0.emailIsPending }
    }

    /// Creates a user whose number waits for the code texted to it, with its password hash, as
    /// `createPending(email:…)` does for an address: a sign-up of the number still waiting is
    /// replaced; nil (and nothing written) when a confirmed user has the number.
    public func createPending(
        phone: PhoneNumber, name: String?, metadata: [String: JSONValue], passwordHash: String,
        lifetime: Double = UserDirectory.pendingLifetime
    ) async throws -> User? {
        let user = User.pendingSignUp(
            phone: phone, name: name, metadata: metadata, at: (clock.now * 1000).rounded(.down), lifetime: lifetime)
        return try await createPending(user, identity: .phone(phone), passwordHash: passwordHash, signUpChallenge: nil)
        { $0.phoneIsPending }
    }

    /// `made` written with its `identity`'s index item and its password, replacing the sign-up
    /// of the same identity that `stillPending` says waits; nil when a confirmed user has it.
    private func createPending(
        _ made: User, identity: SignInIdentity, passwordHash: String, signUpChallenge: String?,
        stillPending: (User) -> Bool
    ) async throws -> User? {
        var user = made
        user.indexKeys = [identity.indexKey]
        let index: Item = [
            "key": .string(identity.indexKey), "userId": .string(user.id), "ttl": .number(user.pendingUntil ?? 0),
        ]
        // The password records whether this attempt replaced one still waiting (`contested`): a
        // code then keeps it no more (`SignUpPassword.keptByCode`).
        let fresh = { [user] (contested: Bool) -> [WriteOperation] in
            [
                .put(table: Self.usersTable, item: user.item, condition: .itemNotExists),
                PasswordCredentials.write(
                    userID: user.id, hash: passwordHash, at: user.createdAt, expiresAt: user.pendingUntil,
                    signUpChallenge: signUpChallenge, contested: contested),
            ]
        }
        // A sign-up racing this one may replace the attempt between the read and the write:
        // the conditions catch it, and the read is made again.
        for _ in 0..<3 {
            let previous = try await self.user(identity)
            if let previous, !stillPending(previous) { return nil }
            let claim: WriteOperation = .put(
                table: Self.indexTable, item: index,
                condition: previous.map { .attributeEquals("userId", .string($0.id)) } ?? .itemNotExists)
            let writes = fresh(previous != nil) + (previous.map(Self.replacement(of:)) ?? []) + [claim]
            do {
                try await store.transactWrite(writes)
                return user
            } catch StoreError.transactionCanceled {
                continue
            }
        }
        return nil
    }

    /// The writes that remove the unconfirmed sign-up `previous` (its user, as read, and its
    /// password) for another sign-up of the same address.
    private static func replacement(of previous: User) -> [WriteOperation] {
        [
            .delete(
                table: usersTable, key: ItemKey(.string(previous.id)),
                condition: .attributeEquals("updatedAt", .number(previous.updatedAt))),
            PasswordCredentials.removal(userID: previous.id),
        ]
    }

    /// Marks `user`'s address confirmed now: the user and its address's index item no longer
    /// expire, and the password chosen at sign-up goes, unless `password` says the sign-up's
    /// own client proved itself (`SignUpPassword`). Whatever proved the address (the sign-up's
    /// own link used from any browser, a magic link, a provider vouching for it) proved the
    /// mailbox, not who signed up, who may not be its owner (pre-account takeover): the owner
    /// sets a password from the session the proof starts, or through recovery.
    public func confirmEmail(of user: User, password: SignUpPassword = .dropped) async throws -> User {
        var confirmed = user
        confirmed.emailConfirmedAt = (clock.now * 1000).rounded(.down)
        confirmed.pendingUntil = nil
        let key = user.email.flatMap(EmailAddress.init).map { SignInIdentity.email($0).indexKey }
        return try await confirm(confirmed, of: user, indexKey: key, password: password)
    }

    /// Marks `user`'s number confirmed now, as `confirmEmail` does an address: the password chosen
    /// at sign-up stays only as `password` says (`SignUpPassword.keptByCode` for the sign-up's own
    /// code, `PhoneSignIn`).
    public func confirmPhone(of user: User, password: SignUpPassword = .dropped) async throws -> User {
        var confirmed = user
        confirmed.phoneIsPending = false
        confirmed.phoneConfirmedAt = (clock.now * 1000).rounded(.down)
        confirmed.pendingUntil = nil
        let key = user.phone.flatMap { PhoneNumber($0) }.map { SignInIdentity.phone($0).indexKey }
        return try await confirm(confirmed, of: user, indexKey: key, password: password)
    }

    /// `confirmed` written over `user`, its index item `indexKey` no longer expiring, and the
    /// sign-up's password as `password` says (dropped when the condition it needs fails).
    private func confirm(
        _ confirmed: User, of user: User, indexKey: String?, password: SignUpPassword
    ) async throws -> User {
        var writes: [WriteOperation] = [PasswordCredentials.confirmation(userID: user.id, password)]
        if let indexKey {
            writes.append(
                .update(
                    table: Self.indexTable, key: ItemKey(.string(indexKey)), actions: [.remove("ttl")],
                    condition: .attributeEquals("userId", .string(user.id))))
        }
        do {
            return try await save(confirmed, replacing: user, alsoWriting: writes)
        } catch StoreError.transactionCanceled(index: 1, _, _) where password != .dropped {
            // No password chosen with that challenge (another client's link, a resend's, or none
            // left): confirmed all the same, and whatever password there is goes.
            writes[0] = PasswordCredentials.confirmation(userID: user.id, .dropped)
            return try await save(confirmed, replacing: user, alsoWriting: writes)
        }
    }

    /// Writes `changed` (its `updatedAt` set to now) with `alsoWriting`, in one transaction, on
    /// the condition that the stored user is still `previous`: `SessionError.userNotFound` when
    /// it was deleted or changed meanwhile.
    public func save(
        _ changed: User, replacing previous: User, alsoWriting writes: [WriteOperation] = []
    ) async throws -> User {
        var changed = changed
        changed.updatedAt = max((clock.now * 1000).rounded(.down), previous.updatedAt + 1)
        do {
            try await store.transactWrite(
                [
                    .put(
                        table: Self.usersTable, item: changed.item,
                        condition: .attributeEquals("updatedAt", .number(previous.updatedAt)))
                ] + writes)
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            throw SessionError.userNotFound
        }
        return changed
    }

    /// Moves `user` to the address `email` (confirmed: the caller has both addresses' consent):
    /// the new index item must be new, the old one goes, with `alsoWriting`, in one transaction.
    /// `AccountError.emailExists` when another user has the address.
    public func changeEmail(
        of user: User, to email: EmailAddress, alsoWriting more: [WriteOperation] = []
    ) async throws -> User {
        var changed = user
        changed.email = email.value
        changed.emailConfirmedAt = (clock.now * 1000).rounded(.down)
        changed.providers["email"] = email.value
        changed.pendingUntil = nil
        let old = user.email.flatMap(EmailAddress.init).map(SignInIdentity.email)
        return try await move(
            changed, of: user, from: old, to: .email(email), replacing: nil, alsoWriting: more, taken: .emailExists)
    }

    /// Moves `user` to the number `phone` (confirmed by the code texted to it:
    /// `PhoneCodes.verifyChange`), as `changeEmail` moves an address. A password sign-up of the
    /// number still waiting for its code is only a reservation (maybe a stranger's): it goes, its
    /// user and password with it, in the same transaction. `AccountError.phoneExists` when
    /// another user has the number.
    public func changePhone(of user: User, to phone: PhoneNumber) async throws -> User {
        var changed = user
        changed.phone = phone.value
        changed.phoneConfirmedAt = (clock.now * 1000).rounded(.down)
        changed.phoneIsPending = false
        changed.providers["phone"] = phone.value
        let old = user.phone.flatMap { PhoneNumber($0) }.map(SignInIdentity.phone)
        let waiting = try await self.user(.phone(phone)).flatMap { $0.id != user.id && $0.phoneIsPending ? $0 : nil }
        return try await move(
            changed, of: user, from: old, to: .phone(phone), replacing: waiting, alsoWriting: [], taken: .phoneExists)
    }

    /// `changed` (`user` with its new address or number) saved, its index item `new` claimed and
    /// `old`'s removed, with `more`, in one transaction; `taken` when another user has `new`.
    /// `waiting`: the unconfirmed sign-up that holds `new`, removed in the same transaction.
    private func move(
        _ changed: User, of user: User, from old: SignInIdentity?, to new: SignInIdentity, replacing waiting: User?,
        alsoWriting more: [WriteOperation], taken: AccountError
    ) async throws -> User {
        var changed = changed
        // An anonymous user's first confirmed address or number makes it permanent.
        changed.makePermanent()
        changed.indexKeys = changed.indexKeys.filter { $0 != old?.indexKey } + [new.indexKey]
        var writes = [Self.claim(new, for: user.id, over: waiting?.id)] + (waiting.map(Self.replacement(of:)) ?? [])
        if let old {
            writes.append(
                .delete(
                    table: Self.indexTable, key: ItemKey(.string(old.indexKey)),
                    condition: .attributeEquals("userId", .string(user.id))))
        }
        do {
            return try await save(changed, replacing: user, alsoWriting: writes + more)
        } catch StoreError.transactionCanceled(index: let index, _, _) where index >= 1 && index <= 3 {
            // The index item, or the sign-up that held it (confirmed or replaced meanwhile).
            throw taken
        }
    }
}
