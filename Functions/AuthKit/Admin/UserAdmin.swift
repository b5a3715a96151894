import GatehouseJSON
import StoreCore

/// What an operator does to users: Supabase's admin API (`SupabaseAdmin`, with a server key)
/// and `gatehouse users …` (at a terminal) call these same operations, each made by `actor`.
///
/// Users are not per app in Gatehouse: one `Users` table serves every app a deployment
/// registers (a user signs in to any of them). So an admin, whichever app's key it holds,
/// manages every user of the deployment.
public struct UserAdmin: Sendable {
    /// Who makes the operations.
    public let actor: AdminActor
    let store: any KeyValueStore
    let clock: any StoreClock
    let hasher: PasswordHasher
    public let users: UserDirectory
    /// Where each operation is recorded, with the key that made it (`UserAdmin+Audit.swift`).
    let audit: AuditLog

    /// `audit` is where the operations are recorded: by default the store's `AuditLog`.
    public init(
        store: any KeyValueStore, clock: any StoreClock, actor: AdminActor, hasher: PasswordHasher = .init(),
        audit: AuditLog? = nil
    ) {
        self.store = store
        self.clock = clock
        self.actor = actor
        self.hasher = hasher
        users = UserDirectory(store: store, clock: clock)
        self.audit = audit ?? AuditLog(store: store, clock: clock)
    }

    /// Now, in ms since 1970.
    var now: Double { (clock.now * 1000).rounded(.down) }

    /// The user `id`; `UserAdminError.userNotFound` when there is none.
    public func user(id: String) async throws -> User {
        guard id.utf8.count <= 64, let user = try await users.user(id: id) else { throw UserAdminError.userNotFound }
        return user
    }

    /// Page `page` (from 1) of every user, `perPage` a page, newest first, and how many there are
    /// in all. Reads the whole `Users` table (Supabase pages by offset; Gatehouse keeps no
    /// ordered index of users), so its cost grows with the users.
    public func list(page: Int, perPage: Int) async throws -> (users: [User], total: Int) {
        guard page >= 1, (1...1000).contains(perPage) else {
            throw UserAdminError.invalid("page must be 1 or more, per_page 1 to 1000")
        }
        let all = try await store.scan(UserDirectory.usersTable, limit: nil).compactMap(User.init(item:))
            .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
        let start = (page - 1) * perPage
        guard start < all.count else { return ([], all.count) }
        return (Array(all[start..<min(all.count, start + perPage)]), all.count)
    }

    /// Ends every session of the user `id` at once (the authorizer's session check refuses
    /// their access tokens at its next uncached check).
    public func signOut(id: String) async throws {
        _ = try await user(id: id)
        try await RefreshTokens.endSessions(userID: id, in: store)
        await recorded(.adminSignOut, userID: id)
    }

    /// Bans the user `id` for `seconds` (nil lifts the ban): its `bannedUntil` stored, then
    /// every session ended, so a sign-in racing the ban is either refused by the stored ban or
    /// ended with the rest. The user as stored.
    @discardableResult
    public func ban(id: String, forSeconds seconds: Double?) async throws -> User {
        let banChange: AdminUserFields.Ban = seconds.map { .forSeconds($0) } ?? .lift
        let bannedUntil = try ban(banChange, from: nil)
        let banned = try await change(id: id) { $0.bannedUntil = bannedUntil }
        if seconds != nil { try await RefreshTokens.endSessions(userID: id, in: store) }
        await recorded(seconds != nil ? .ban : .unban, userID: id)
        return banned
    }

    /// Deletes the user `id`: sessions, user, index items, password, factors and passkeys
    /// (`Accounts.delete`). A soft delete (Supabase's `should_soft_delete`) is not kept:
    /// `UserAdminError.unsupported`.
    public func delete(id: String, soft: Bool = false) async throws {
        guard !soft else { throw UserAdminError.unsupported("a soft delete (should_soft_delete); delete the user") }
        _ = try await user(id: id)
        do {
            try await Accounts(store: store, clock: clock).delete(userID: id)
        } catch SessionError.userNotFound {
            throw UserAdminError.userNotFound
        }
        await recorded(.adminUserDeleted, userID: id)
    }

    /// The user `id`'s second factors.
    public func factors(id: String) async throws -> [Factor] {
        _ = try await user(id: id)
        return try await Factors.list(userID: id, in: store)
    }

    /// Removes the user `id`'s factor `factorID` and ends the sessions it raised to `aal2`; with
    /// the last verified factor, also the recovery codes and the sessions they raised.
    public func deleteFactor(_ factorID: String, userID id: String) async throws -> Factor {
        guard let factor = try await factors(id: id).first(where: { $0.id == factorID }) else {
            throw UserAdminError.factorNotFound
        }
        _ = try await store.delete(
            Factors.table, key: ItemKey(.string(id), .string(Factor.entry(factorID))), condition: nil)
        // With the last verified factor go the recovery codes, as at the user's own removal.
        var raisers = [factorID]
        if try await Factors.removeRecoveryCodesWithoutFactor(userID: id, in: store) {
            raisers.append(Factors.recoveryRaiser)
        }
        try await RefreshTokens.endSessions(userID: id, in: store) {
            raisers.contains($0["factorId"]?.stringValue ?? "")
        }
        await recorded(.adminFactorRemoved, userID: id)
        return factor
    }

    /// The user `id` after `change`, written on the condition that it is unchanged since read
    /// (tried again on the user as it is then).
    func change(id: String, _ change: (inout User) throws -> Void) async throws -> User {
        for attempt in 1...3 {
            let user = try await user(id: id)
            var changed = user
            try change(&changed)
            changed.updatedAt = max(now, user.updatedAt + 1)
            do {
                try await store.put(
                    UserDirectory.usersTable, item: changed.item,
                    condition: .attributeEquals("updatedAt", .number(user.updatedAt)))
                return changed
            } catch StoreError.conditionFailed where attempt < 3 {
                continue
            }
        }
        throw UserAdminError.userNotFound
    }
}
