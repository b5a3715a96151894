import GatehouseJSON
import StoreCore

/// Users' password hashes, in a table of their own (`Passwords`, keyed by user id) so that a
/// function that reads users (the profile, the authorizer) never holds a hash.
public enum PasswordCredentials {
    public static let table = "Passwords"

    /// The write that sets `userID`'s hash (PHC string, see `PasswordHash`).
    public static func write(userID: String, hash: String, at now: Double) -> WriteOperation {
        .put(
            table: table, item: ["userId": .string(userID), "hash": .string(hash), "updatedAt": .number(now)],
            condition: nil)
    }

    /// The write that removes `userID`'s password, if it has one.
    public static func removal(userID: String) -> WriteOperation {
        .delete(table: table, key: ItemKey(.string(userID)), condition: nil)
    }

    /// `userID`'s stored hash, when it has a password.
    public static func hash(userID: String, in store: any KeyValueStore) async throws -> String? {
        try await store.get(table, key: ItemKey(.string(userID)))?["hash"]?.stringValue
    }
}
