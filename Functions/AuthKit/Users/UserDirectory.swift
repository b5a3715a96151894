import GatehouseJSON
import StoreCore

/// Users and the index items that keep their email, phone and provider subjects unique.
///
/// An index item (`UserIndex`, keyed `email#ada@example.com`, `provider#apple#0012...`) points at
/// a user id and is written in the same transaction as the user, on the condition that it does
/// not exist yet. Two sign-ins of one new address at once therefore create one user: the second
/// transaction fails on the index and reads the first one's user instead.
public struct UserDirectory: Sendable {
    public static let usersTable = "Users"
    public static let indexTable = "UserIndex"

    private let store: any KeyValueStore
    private let clock: any StoreClock

    public init(store: any KeyValueStore, clock: any StoreClock) {
        self.store = store
        self.clock = clock
    }

    /// The user with `id`, if there is one.
    public func user(id: String) async throws -> User? {
        try await store.get(Self.usersTable, key: ItemKey(.string(id))).flatMap(User.init(item:))
    }

    /// The user with `email`, if there is one.
    public func user(email: EmailAddress) async throws -> User? {
        guard let userID = try await indexedUserID(Self.emailKey(email)) else { return nil }
        return try await user(id: userID)
    }

    /// The user with `email`, created (with `name`, and `provider` as a provider without a
    /// separate subject) when there is none. `isNew` is true only for the call that created it.
    public func findOrCreate(
        email: EmailAddress, name: String? = nil, provider: String = "email"
    ) async throws -> (user: User, isNew: Bool) {
        let key = Self.emailKey(email)
        if let existing = try await user(email: email) { return (existing, false) }
        let now = clock.now * 1000
        let user = User(
            id: RandomToken.urlSafe(byteCount: 16), email: email.value, name: name, providers: [provider: email.value],
            createdAt: now, updatedAt: now)
        do {
            try await store.transactWrite([
                .put(table: Self.usersTable, item: user.item, condition: .itemNotExists),
                .put(
                    table: Self.indexTable, item: ["key": .string(key), "userId": .string(user.id)],
                    condition: .itemNotExists),
            ])
            return (user, true)
        } catch StoreError.transactionCanceled(index: 1, _, _) {
            // Another sign-in of this address created the user first.
            guard let winner = try await self.user(email: email) else { throw SessionError.userNotFound }
            return (winner, false)
        }
    }

    /// Deletes the user with `id` and its index items in one transaction, so the address can
    /// sign up again afterwards; false when there was no such user.
    public func delete(id: String) async throws -> Bool {
        guard let user = try await user(id: id) else { return false }
        var writes: [WriteOperation] = [
            .delete(table: Self.usersTable, key: ItemKey(.string(id)), condition: .itemExists)
        ]
        if let email = user.email.flatMap(EmailAddress.init) {
            writes.append(
                .delete(
                    table: Self.indexTable, key: ItemKey(.string(Self.emailKey(email))),
                    condition: .attributeEquals("userId", .string(id))))
        }
        do {
            try await store.transactWrite(writes)
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            return false  // deleted meanwhile
        }
        return true
    }

    private func indexedUserID(_ key: String) async throws -> String? {
        try await store.get(Self.indexTable, key: ItemKey(.string(key)))?["userId"]?.stringValue
    }

    static func emailKey(_ email: EmailAddress) -> String { "email#\(email.value)" }
}
