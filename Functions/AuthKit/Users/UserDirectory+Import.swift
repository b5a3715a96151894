import StoreCore

extension UserDirectory {
    /// What writing an imported user did.
    public enum ImportResult: Sendable, Equatable {
        /// The user, its index items and its password are written.
        case imported
        /// A user with this id is already stored (an earlier run of the same import): nothing written.
        case alreadyPresent
        /// Another user has this identity (its address, number or provider subject), the user
        /// id holding it when it is known: nothing written.
        case taken(SignInIdentity, by: String?)
        /// The id has a password but no user (left by something else): nothing written.
        case passwordPresent
        /// One of the writes `alsoWriting` brought (a factor, `Factors.importWrite`) found its
        /// item stored already, without the user: nothing written.
        case otherPresent
    }

    /// Writes `user`, brought from another system with its own id, in one transaction: the
    /// user, an index item for each of `identities` (the user's `indexKeys` become theirs) and
    /// `passwordHash` when it has one, each on the condition that it does not exist yet. So an
    /// import never overwrites a user, an identity or a password, and running it again changes
    /// nothing. `extra` (the user's second factors) goes in the same transaction.
    public func importUser(
        _ user: User, identities: [SignInIdentity], passwordHash: String?, alsoWriting extra: [WriteOperation] = []
    ) async throws -> ImportResult {
        var user = user
        user.indexKeys = identities.map(\.indexKey)
        var writes: [WriteOperation] = [.put(table: Self.usersTable, item: user.item, condition: .itemNotExists)]
        writes += identities.map { Self.claim($0, for: user.id) }
        if let passwordHash {
            writes.append(PasswordCredentials.firstWrite(userID: user.id, hash: passwordHash, at: user.updatedAt))
        }
        let extraFrom = writes.count
        writes += extra
        do {
            try await store.transactWrite(writes)
            return .imported
        } catch StoreError.transactionCanceled(let index, _, _) {
            if index == 0 { return .alreadyPresent }
            if index >= extraFrom { return .otherPresent }
            guard index <= identities.count else { return .passwordPresent }
            let identity = identities[index - 1]
            return .taken(identity, by: try await indexedUserID(identity.indexKey))
        }
    }
}
