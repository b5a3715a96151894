import GatehouseJSON
import StoreCore

/// Short-lived, single-use codes: how every sign-in method hands a user to an app.
///
/// A code is 32 random bytes (43 URL-safe characters), kept for 60 seconds in `AuthCodes` with
/// its grant under the SHA-256 of the code (hex, in the `code` key attribute: the table holds
/// no usable code), and consumed by a conditional delete: one consumer wins however many try at
/// once, and only the app the code was made for can consume it. A code presented for another
/// app is spent all the same, so nobody can probe which app a code belongs to.
public struct AuthCodes: Sendable {
    public static let table = "AuthCodes"
    /// How long a code lives, in seconds.
    public static let lifetime: Double = 60

    private let store: any KeyValueStore
    private let clock: any StoreClock

    public init(store: any KeyValueStore, clock: any StoreClock) {
        self.store = store
        self.clock = clock
    }

    /// A fresh code for `user` signed in with `provider`, for `app`; bound to the client's PKCE
    /// `codeChallenge` when it sent one. It lives `lifetime` seconds, and its record `remembered`
    /// seconds more (so that a late exchange can be told the code expired; `take`).
    /// `linking`: a provider identity to link to `user` when the code is exchanged
    /// (`IdentityLinkFlow`), never a sign-in of that identity's own user.
    public func mint(
        app: String, user: User, provider: String, isNewUser: Bool, codeChallenge: String? = nil,
        lifetime: Double = AuthCodes.lifetime, remembered: Double = 0, linking: SignInIdentity? = nil
    ) async throws -> String {
        let (code, item) = record(
            app: app, user: user, provider: provider, isNewUser: isNewUser, codeChallenge: codeChallenge,
            lifetime: lifetime, remembered: remembered, linking: linking, secondFactor: nil)
        try await store.put(Self.table, item: item, condition: .itemNotExists)
        return code
    }

    /// `mint`'s write, for a transaction that does more: a code whose session starts at `aal2`
    /// (`secondFactor`, proved in the same transaction: the hosted page's code step).
    public func minting(
        app: String, user: User, provider: String, isNewUser: Bool, codeChallenge: String?,
        secondFactor: SecondFactorProof
    ) -> (code: String, write: WriteOperation) {
        let (code, item) = record(
            app: app, user: user, provider: provider, isNewUser: isNewUser, codeChallenge: codeChallenge,
            lifetime: Self.lifetime, remembered: 0, linking: nil, secondFactor: secondFactor)
        return (code, .put(table: Self.table, item: item, condition: .itemNotExists))
    }

    /// A fresh code and the record that keeps its grant.
    private func record(
        app: String, user: User, provider: String, isNewUser: Bool, codeChallenge: String?, lifetime: Double,
        remembered: Double, linking: SignInIdentity?, secondFactor: SecondFactorProof?
    ) -> (code: String, item: Item) {
        let code = RandomToken.urlSafe(byteCount: 32)
        let expires = clock.now + lifetime
        var item: Item = [
            "code": .string(Self.hash(code)), "app": .string(app), "userId": .string(user.id),
            "provider": .string(provider),
            "isNewUser": .bool(isNewUser), "expiresAt": .number((expires * 1000).rounded(.down)),
            // The store hides the item from this second on; `consume` checks the milliseconds.
            "ttl": .number((expires + remembered).rounded(.up)),
        ]
        if let email = user.email { item["email"] = .string(email) }
        if let name = user.name { item["name"] = .string(name) }
        if let phone = user.phone { item["phone"] = .string(phone) }
        item["appMetadata"] = .object(user.appMetadataWithProviders)
        if !user.metadata.isEmpty { item["userMetadata"] = .object(user.metadata) }
        if let codeChallenge { item["codeChallenge"] = .string(codeChallenge) }
        if let (name, subject) = linking?.providerEntry {
            item["linkProvider"] = .string(name)
            item["linkSubject"] = .string(subject)
        }
        if let secondFactor { item["secondFactor"] = secondFactor.json }
        return (code, item)
    }

    /// Consumes `code` for `app`: its grant, once. Unknown, used and expired codes are all
    /// `invalidCode`; a live code of another app is `wrongApp`, and spent.
    public func consume(_ code: String, app: String) async throws -> AuthCodeGrant {
        let key = Self.key(code)
        let consumed: Item?
        do {
            consumed = try await store.delete(Self.table, key: key, condition: .attributeEquals("app", .string(app)))
        } catch StoreError.conditionFailed {
            // Absent, expired, or another app's: that one is spent too.
            if try await store.delete(Self.table, key: key, condition: nil) != nil { throw SessionError.wrongApp }
            throw SessionError.invalidCode
        }
        guard let item = consumed, let grant = Self.grant(item), clock.now * 1000 < grant.expiresAt else {
            throw SessionError.invalidCode
        }
        return grant
    }

    /// Takes `code` for `app` by one conditional delete, expired or not: its grant, once however
    /// many takes race (the caller checks `expiresAt`). Nil for an unknown or used code; a code
    /// of another app is spent and nil too, so nobody can probe which app a code belongs to.
    public func take(_ code: String, app: String) async throws -> AuthCodeGrant? {
        let key = Self.key(code)
        do {
            return try await store.delete(Self.table, key: key, condition: .attributeEquals("app", .string(app)))
                .flatMap(Self.grant)
        } catch StoreError.conditionFailed {
            _ = try await store.delete(Self.table, key: key, condition: nil)
            return nil
        }
    }

    /// Spends `code` whatever it is: a code presented where it may not be redeemed.
    public func burn(_ code: String) async throws {
        _ = try await store.delete(Self.table, key: Self.key(code), condition: nil)
    }

    /// The grant of a live `code`, without consuming it: nil when it is unknown, used or
    /// expired. An exchange reads it first, then consumes it (`consumption`) in the same
    /// transaction that starts the session, so the code is spent exactly when a session starts.
    public func peek(_ code: String) async throws -> AuthCodeGrant? {
        guard let item = try await store.get(Self.table, key: Self.key(code)), let grant = Self.grant(item),
            clock.now * 1000 < grant.expiresAt
        else { return nil }
        return grant
    }

    /// The transaction write that consumes `code`, made for `app`: it fails, and with it the
    /// transaction, when another consumer got there first.
    public static func consumption(of code: String, app: String) -> WriteOperation {
        .delete(table: table, key: key(code), condition: .attributeEquals("app", .string(app)))
    }

    /// What is stored of `code`: its SHA-256, in hex.
    public static func hash(_ code: String) -> String {
        SHA256Hex.of(code.utf8)
    }

    private static func key(_ code: String) -> ItemKey {
        ItemKey(.string(hash(code)))
    }

    private static func grant(_ item: Item) -> AuthCodeGrant? {
        guard case .string(let app)? = item["app"], case .string(let userID)? = item["userId"],
            case .string(let provider)? = item["provider"], case .bool(let isNewUser)? = item["isNewUser"],
            case .number(let expiresAt)? = item["expiresAt"]
        else { return nil }
        return AuthCodeGrant(
            app: app, userID: userID, email: item["email"]?.stringValue, name: item["name"]?.stringValue,
            provider: provider, isNewUser: isNewUser, expiresAt: expiresAt,
            codeChallenge: item["codeChallenge"]?.stringValue, phone: item["phone"]?.stringValue,
            appMetadata: item["appMetadata"]?.objectValue ?? [:],
            userMetadata: item["userMetadata"]?.objectValue ?? [:],
            linking: item["linkProvider"]?.stringValue.flatMap { provider in
                item["linkSubject"]?.stringValue.map { SignInIdentity.provider(provider, subject: $0) }
            }, secondFactor: SecondFactorProof(item["secondFactor"]))
    }
}
