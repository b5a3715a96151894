import GatehouseJSON
import JOSE
import StoreCore

/// Users' passkeys in `Passkeys`, and the challenges their ceremonies begin with: what is
/// stored, read and spent, without the WebAuthn checks themselves (`PasskeyKit`, which only the
/// passkey functions link, runs those over this).
///
/// Items of one user share a partition: `passkey:<id>` (`Passkey`) and a registration's
/// `challenge:<id>`. A credential id's owner item is its own partition,
/// `credential:<SHA-256 hex of the id>`, written in the passkey's transaction on condition it
/// does not exist: a credential is registered once across all users. A sign-in's challenge is
/// `challenge:<id>` too, its own partition, as it belongs to no user yet.
public struct Passkeys: Sendable {
    public static let table = "Passkeys"
    /// How long a challenge can be answered, in seconds: 5 minutes (supabase/auth's default).
    public static let challengeLifetime: Double = 300
    /// Passkeys one user may have (supabase/auth's `MaxPasskeysPerUser` default).
    public static let maximumPerUser = 10
    /// The longest `friendly_name` (supabase/auth's).
    public static let maximumNameLength = 120

    let store: any KeyValueStore
    let clock: any StoreClock
    /// The sessions a removed passkey had raised, lowered (`RefreshTokens.lowerSessions`).
    let refreshTokens: RefreshTokens
    /// Where passkeys added and removed are recorded (the sessions').
    let audit: AuditLog

    public init(store: any KeyValueStore, clock: any StoreClock, sessions: SessionService) {
        self.init(store: store, clock: clock, refreshTokens: sessions.refreshTokens, audit: sessions.audit)
    }

    /// Over `refreshTokens` alone: a function that signs no token (the admin API's).
    public init(store: any KeyValueStore, clock: any StoreClock, refreshTokens: RefreshTokens, audit: AuditLog) {
        self.store = store
        self.clock = clock
        self.refreshTokens = refreshTokens
        self.audit = audit
    }

    /// `userID`'s passkeys, oldest first.
    public func list(userID: String) async throws -> [Passkey] {
        try await store.query(
            Self.table, partition: .string(userID), sortKey: .beginsWith("passkey:"), limit: nil, ascending: true
        )
        .compactMap(Passkey.init(item:)).sorted { $0.createdAt < $1.createdAt }
    }

    /// `userID`'s passkey `id`: `PasskeyError.passkeyNotFound` when the user has none of that id.
    public func passkey(_ id: String, userID: String) async throws -> Passkey {
        guard id.utf8.count <= 64,
            let item = try await store.get(Self.table, key: ItemKey(.string(userID), .string(Passkey.entry(id)))),
            let passkey = Passkey(item: item)
        else { throw PasskeyError.passkeyNotFound }
        return passkey
    }

    /// The passkey registered with `credentialID` (its bytes), whoever's it is; nil for none.
    public func passkey(credentialID: [UInt8]) async throws -> Passkey? {
        guard let owner = try await store.get(Self.table, key: Self.ownerKey(credentialID)),
            case .string(let userID)? = owner["owner"], case .string(let id)? = owner["passkeyId"]
        else { return nil }
        do {
            return try await passkey(id, userID: userID)
        } catch PasskeyError.passkeyNotFound {
            return nil
        }
    }

    /// Renames `userID`'s passkey `id`; the passkey as it is now.
    public func rename(_ id: String, userID: String, to name: String) async throws -> Passkey {
        guard !name.isEmpty, name.count <= Self.maximumNameLength else { throw PasskeyError.invalidName }
        let passkey = try await passkey(id, userID: userID)
        do {
            let item = try await store.update(
                Self.table, key: passkey.key, actions: [.set("friendlyName", .string(name))], condition: .itemExists)
            guard let renamed = Passkey(item: item) else { throw PasskeyError.passkeyNotFound }
            return renamed
        } catch StoreError.conditionFailed {
            throw PasskeyError.passkeyNotFound
        }
    }

    /// Removes `userID`'s passkey `id` and its owner item in one transaction, and ends the
    /// sessions it signed in, before (so that a failure leaves the passkey to remove again) and
    /// after (a sign-in that raced the removal). An id already gone still ends its sessions.
    public func remove(_ id: String, userID: String, by actor: AuditActor? = nil, app: String? = nil) async throws {
        let passkey: Passkey
        do {
            passkey = try await self.passkey(id, userID: userID)
        } catch PasskeyError.passkeyNotFound where id.utf8.count <= 64 {
            try await refreshTokens.endSessions(userID: userID, startedBy: id)
            throw PasskeyError.passkeyNotFound
        }
        try await refreshTokens.endSessions(userID: userID, startedBy: passkey.id)
        do {
            try await store.transactWrite([
                .delete(table: Self.table, key: passkey.key, condition: .itemExists),
                .delete(table: Self.table, key: Self.ownerKey(credentialID: passkey.credentialID), condition: nil),
            ])
        } catch StoreError.transactionCanceled(index: 0, _, _) {
            throw PasskeyError.passkeyNotFound
        }
        try await refreshTokens.endSessions(userID: userID, startedBy: passkey.id)
        await audit.record(.passkeyRemoved, userID: userID, app: app, actor: actor)
    }

    /// Deletes every item `userID` has in the table (passkeys, their owner items, challenges):
    /// what an account's deletion (`Accounts.delete`) leaves nothing of, once the user is gone.
    public static func removeAll(userID: String, in store: any KeyValueStore) async throws {
        let items = try await store.query(
            table, partition: .string(userID), sortKey: nil, limit: nil, ascending: true)
        for item in items {
            guard let entry = item["entry"] else { continue }
            if let passkey = Passkey(item: item) {
                _ = try await store.delete(table, key: ownerKey(credentialID: passkey.credentialID), condition: nil)
            }
            _ = try await store.delete(table, key: ItemKey(.string(userID), entry), condition: nil)
        }
    }

    /// The key of the owner item of the credential whose id is `credentialID` (its bytes).
    static func ownerKey(_ credentialID: [UInt8]) -> ItemKey {
        ItemKey(.string("credential:\(SHA256Hex.of(credentialID))"), .string("owner"))
    }

    /// The same, from the id as stored (base64url); a malformed one keys nothing anyone has.
    static func ownerKey(credentialID: String) -> ItemKey {
        ownerKey(Base64URL.decode(credentialID) ?? Array(credentialID.utf8))
    }
}
