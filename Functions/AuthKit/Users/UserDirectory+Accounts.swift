import GatehouseJSON
import StoreCore

extension UserDirectory {
    /// Creates a user whose address waits for confirmation, with its password hash, in one
    /// transaction: nil (and nothing written) when the address already has a user.
    public func createPending(
        email: EmailAddress, name: String?, metadata: [String: JSONValue], passwordHash: String
    ) async throws -> User? {
        let user = User.pendingSignUp(
            email: email, name: name, metadata: metadata, at: (clock.now * 1000).rounded(.down))
        do {
            try await store.transactWrite([
                .put(table: Self.usersTable, item: user.item, condition: .itemNotExists),
                Self.claim(.email(email), for: user.id),
                PasswordCredentials.write(userID: user.id, hash: passwordHash, at: user.createdAt),
            ])
            return user
        } catch StoreError.transactionCanceled(index: 1, _, _) {
            return nil
        }
    }

    /// Marks `user`'s address confirmed now. `droppingPassword` when the proof came another
    /// way than the sign-up's own link (a magic link, a provider vouching for the address): a
    /// password set by whoever signed the address up without confirming it must not open the
    /// account its owner now uses (pre-account takeover).
    public func confirmEmail(of user: User, droppingPassword: Bool) async throws -> User {
        var confirmed = user
        confirmed.emailConfirmedAt = (clock.now * 1000).rounded(.down)
        return try await save(
            confirmed, replacing: user,
            alsoWriting: droppingPassword ? [PasswordCredentials.removal(userID: user.id)] : [])
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

    /// Moves `user` to the address `email` (confirmed: the caller has its link's proof): the
    /// new index item must be new, the old one goes, in the same transaction.
    /// `AccountError.emailExists` when another user has the address.
    public func changeEmail(of user: User, to email: EmailAddress) async throws -> User {
        var changed = user
        changed.email = email.value
        changed.emailConfirmedAt = (clock.now * 1000).rounded(.down)
        changed.providers["email"] = email.value
        var writes = [Self.claim(.email(email), for: user.id)]
        if let old = user.email.flatMap(EmailAddress.init) {
            writes.append(
                .delete(
                    table: Self.indexTable, key: ItemKey(.string(SignInIdentity.email(old).indexKey)),
                    condition: .attributeEquals("userId", .string(user.id))))
        }
        do {
            return try await save(changed, replacing: user, alsoWriting: writes)
        } catch StoreError.transactionCanceled(index: 1, _, _) {
            throw AccountError.emailExists
        }
    }
}
