import GatehouseJSON
import StoreCore

extension UserDirectory {
    /// Links a provider's `identity` to `user` at the user's own request (Supabase's
    /// `linkIdentityWithIdToken`: the caller proved both the session and the identity): its index
    /// item claimed for the user and the user saved in one transaction, each on its condition
    /// (the index item new, the user unchanged since read). An identity another user has is
    /// refused, `AccountError.identityTaken`, and never moved; one the user has already is left
    /// as it is. An anonymous user with an identity is permanent.
    public func attach(_ identity: SignInIdentity, to user: User) async throws -> User {
        if let owner = try await indexedUserID(identity.indexKey) {
            guard owner == user.id else { throw AccountError.identityTaken }
            return user
        }
        var linked = user
        linked.record(identity)
        linked.makePermanent()
        do {
            return try await save(linked, replacing: user, alsoWriting: [Self.claim(identity, for: user.id)])
        } catch StoreError.transactionCanceled(index: 1, _, _) {
            throw AccountError.identityTaken  // claimed meanwhile
        }
    }

    /// Unlinks the provider identity recorded under `entry` in `user.providers` (Supabase's
    /// `unlinkIdentity`): the entry and its index item go, in one transaction, so the identity
    /// can sign up or be linked again. `AccountError.identityNotFound` for an entry the user
    /// does not have; `lastIdentity` when it is the user's only one (nothing would sign in);
    /// `identityNotDetachable` for the address or number, which are the user's own fields.
    public func detach(_ entry: String, from user: User) async throws -> User {
        let key = try Self.detachable(entry, of: user)
        var changed = user
        changed.providers.removeValue(forKey: entry)
        changed.indexKeys.removeAll { $0 == key }
        let release: WriteOperation = .delete(
            table: Self.indexTable, key: ItemKey(.string(key)), condition: .attributeEquals("userId", .string(user.id)))
        do {
            return try await save(changed, replacing: user, alsoWriting: [release])
        } catch StoreError.transactionCanceled(index: 1, _, _) {
            throw AccountError.identityNotFound  // its index item is not this user's
        }
    }

    /// The index key of the identity `entry` names in `user.providers`, when `detach` may
    /// unlink it; its refusals otherwise, before anything is written.
    public static func detachable(_ entry: String, of user: User) throws(AccountError) -> String {
        guard let subject = user.providers[entry] else { throw .identityNotFound }
        let name = SignInIdentity.base(of: entry)
        guard name != "email", name != "phone" else { throw .identityNotDetachable }
        guard user.providers.count > 1 else { throw .lastIdentity }
        return SignInIdentity.provider(name, subject: subject).indexKey
    }
}
