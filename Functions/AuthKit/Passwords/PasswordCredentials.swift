import GatehouseJSON
import StoreCore

/// Users' password hashes, in a table of their own (`Passwords`, keyed by user id) so that a
/// function that reads users (the profile, the authorizer) never holds a hash.
public enum PasswordCredentials {
    public static let table = "Passwords"

    /// The write that sets `userID`'s hash (PHC string, see `PasswordHash`); `expiresAt`
    /// (seconds since 1970, the item's `ttl`) for the password of an unconfirmed sign-up.
    /// `signUpChallenge`: the PKCE challenge of the client that chose it at sign-up, the only one
    /// whose confirmation may keep it (`confirmation`).
    public static func write(
        userID: String, hash: String, at now: Double, expiresAt: Double? = nil, signUpChallenge: String? = nil,
        contested: Bool? = nil
    ) -> WriteOperation {
        var item: Item = ["userId": .string(userID), "hash": .string(hash), "updatedAt": .number(now)]
        if let expiresAt { item["ttl"] = .number(expiresAt) }
        if let signUpChallenge { item["signUpChallenge"] = .string(signUpChallenge) }
        if let contested { item["contested"] = .bool(contested) }
        return .put(table: table, item: item, condition: nil)
    }

    /// The write that replaces `userID`'s hash `stored` with `hash` (a rehash at a good
    /// sign-in), on the condition that `stored` is still the hash: a password changed meanwhile
    /// is never overwritten.
    public static func rehash(userID: String, from stored: String, to hash: String, at now: Double) -> WriteOperation {
        .put(
            table: table, item: ["userId": .string(userID), "hash": .string(hash), "updatedAt": .number(now)],
            condition: .attributeEquals("hash", .string(stored)))
    }

    /// The write that gives `userID` the hash `hash` (an imported one) on the condition that it
    /// has no password yet.
    public static func firstWrite(userID: String, hash: String, at now: Double) -> WriteOperation {
        .put(
            table: table, item: ["userId": .string(userID), "hash": .string(hash), "updatedAt": .number(now)],
            condition: .itemNotExists)
    }

    /// The write that removes `userID`'s password, if it has one.
    public static func removal(userID: String) -> WriteOperation {
        .delete(table: table, key: ItemKey(.string(userID)), condition: nil)
    }

    /// `userID`'s stored hash, when it has a password it may use: none while it is held for the
    /// sign-up's client (`SignUpPassword.held`).
    public static func hash(userID: String, in store: any KeyValueStore) async throws -> String? {
        guard let item = try await store.get(table, key: ItemKey(.string(userID))), item["heldFor"] == nil else {
            return nil
        }
        return item["hash"]?.stringValue
    }

    /// The write that confirming `userID`'s sign-up makes to its password, as `password` says;
    /// but for `dropped`, it requires the password to have been chosen by the client of the
    /// confirmation's challenge (`signUpChallenge`): a link resent with another challenge, or
    /// someone else's, keeps nothing (the caller drops it instead).
    static func confirmation(userID: String, _ password: SignUpPassword) -> WriteOperation {
        let key = ItemKey(.string(userID))
        switch password {
        case .dropped: return removal(userID: userID)
        case .held(let challenge):
            return .update(
                table: table, key: key, actions: [.set("heldFor", .string(challenge))],
                condition: .attributeEquals("signUpChallenge", .string(challenge)))
        case .kept(let challenge):
            return .update(
                table: table, key: key, actions: [.remove("ttl")],
                condition: .attributeEquals("signUpChallenge", .string(challenge)))
        case .keptByPassword(let hash):
            return .update(
                table: table, key: key, actions: [.remove("ttl")], condition: .attributeEquals("hash", .string(hash)))
        case .keptByCode:
            // Not a sign-up that replaced another one still waiting: who signed up is contested
            // there, and the code may be of the attempt the address's owner did not make.
            return .update(
                table: table, key: key, actions: [.remove("ttl"), .remove("heldFor")],
                condition: .attributeEquals("contested", false))
        }
    }

    /// Makes the password held for the sign-up whose PKCE challenge is `challenge` usable, for
    /// good (no `ttl`): the client holding that challenge's verifier ended the flow. Nothing when
    /// `userID` has no password held for it.
    public static func release(userID: String, challenge: String, in store: any KeyValueStore) async throws {
        do {
            _ = try await store.update(
                table, key: ItemKey(.string(userID)), actions: [.remove("heldFor"), .remove("ttl")],
                condition: .attributeEquals("heldFor", .string(challenge)))
        } catch StoreError.conditionFailed {
            // No password held for this flow: a recovery's, a magic link's, or one used already.
        }
    }
}
