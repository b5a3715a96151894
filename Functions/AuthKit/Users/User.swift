import GatehouseJSON
import StoreCore

/// A person who signed in, as kept in the `Users` table.
public struct User: Sendable, Equatable {
    /// Random and never reused: a UUID for users made since password accounts (Supabase's
    /// clients decode ids as UUIDs), 22 URL-safe characters for earlier ones.
    public let id: String
    /// Normalised (see `EmailAddress`), when the user has one.
    public var email: String?
    /// E.164, when the user has one.
    public var phone: String?
    public var name: String?
    /// The subject id at each sign-in provider the user has used (`email`, `apple`, ...).
    public var providers: [String: String]
    /// Milliseconds since 1970.
    public let createdAt: Double
    public var updatedAt: Double
    /// When the address was shown to be the user's (ms): nil while a password sign-up waits for
    /// its confirmation. An address that came by a magic link or from a provider that vouches for
    /// it counts as confirmed when the user was made.
    public var emailConfirmedAt: Double?
    /// The last password sign-in or confirmation (ms), when there was one.
    public var lastSignInAt: Double?
    /// What the app keeps about the user (Supabase's `user_metadata`).
    public var metadata: [String: JSONValue]
    /// What only the app's backend sets (Supabase's `app_metadata` beyond its providers): empty
    /// but for users imported from Supabase, whose `raw_app_meta_data` it keeps.
    public var appMetadata: [String: JSONValue] = [:]
    /// When the phone was shown to be the user's (ms), when it is known apart from `createdAt`
    /// (imported users); a phone comes only by a code or a confirmed import.
    public var phoneConfirmedAt: Double?
    /// While the address waits for its confirmation, or while the user is anonymous: when the
    /// account expires (seconds since 1970), stored as the item's `ttl`, so that an unconfirmed
    /// sign-up (`UserDirectory.pendingLifetime`) or an anonymous user never made permanent
    /// (`AnonymousSignIn.lifetime`) is gone by then. Nil once the address is confirmed.
    public var pendingUntil: Double?
    /// Signed up with a number and a password (`UserDirectory.createPending(phone:)`), the number
    /// not shown to be the user's yet: the texted code confirms it (`confirmPhone`). The account
    /// expires at `pendingUntil` until then.
    public var phoneIsPending = false
    /// Signed in anonymously (Supabase's `is_anonymous`): no address, number or provider yet.
    /// Confirming an address (`UserDirectory.changeEmail`) makes it permanent.
    public var isAnonymous = false
    /// The `UserIndex` keys this user claimed (each written in the claim's own transaction), so
    /// that deleting the user finds them all, also one its record no longer names. Empty for
    /// users stored before it was kept: theirs are found from the record (`SignInIdentity.all`).
    public var indexKeys: [String] = []
    /// Until when (ms since 1970) every sign-in and refresh of the user is refused (an admin's
    /// ban, `UserAdmin.ban`); nil when it is not banned. A lapsed ban is kept until lifted.
    public var bannedUntil: Double?

    public init(
        id: String, email: String? = nil, phone: String? = nil, name: String? = nil, providers: [String: String] = [:],
        createdAt: Double, updatedAt: Double, emailConfirmedAt: Double? = nil, lastSignInAt: Double? = nil,
        metadata: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.email = email
        self.phone = phone
        self.name = name
        self.providers = providers
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.emailConfirmedAt = emailConfirmedAt ?? (email == nil ? nil : createdAt)
        self.lastSignInAt = lastSignInAt
        self.metadata = metadata
    }

    /// A new user signed up with `email` and a password, its address waiting for confirmation, `now` (ms) with a fresh id.
    /// made at `now` (ms) with a fresh id, gone `lifetime` seconds later unless confirmed.
    public static func pendingSignUp(
        email: EmailAddress, name: String?, metadata: [String: JSONValue], at now: Double,
        lifetime: Double = UserDirectory.pendingLifetime
    ) -> User {
        var user = User(
            id: RandomToken.uuid(), email: email.value, name: name, providers: ["email": email.value], createdAt: now,
            updatedAt: now, metadata: metadata)
        user.emailConfirmedAt = nil
        user.pendingUntil = (now / 1000 + lifetime).rounded(.up)
        return user
    }

    /// A new user signed up with `phone` and a password, made at `now` (ms) with a fresh id, its
    /// number waiting for the texted code, gone `lifetime` seconds later unless confirmed.
    public static func pendingSignUp(
        phone: PhoneNumber, name: String?, metadata: [String: JSONValue], at now: Double,
        lifetime: Double = UserDirectory.pendingLifetime
    ) -> User {
        var user = User(
            id: RandomToken.uuid(), phone: phone.value, name: name, providers: ["phone": phone.value], createdAt: now,
            updatedAt: now, metadata: metadata)
        user.phoneIsPending = true
        user.pendingUntil = (now / 1000 + lifetime).rounded(.up)
        return user
    }

    /// A new anonymous user made at `now` (ms) with a fresh id, gone `lifetime` seconds later
    /// unless made permanent.
    public static func anonymous(metadata: [String: JSONValue], at now: Double, lifetime: Double) -> User {
        var user = User(id: RandomToken.uuid(), createdAt: now, updatedAt: now, metadata: metadata)
        user.isAnonymous = true
        user.pendingUntil = (now / 1000 + lifetime).rounded(.up)
        return user
    }

    /// `identity` recorded: its provider entry (beside, never over, another subject at the same
    /// provider: `SignInIdentity.entryName`) and its index key in `indexKeys`.
    mutating func record(_ identity: SignInIdentity) {
        providers[identity.entryName(in: providers)] = identity.providerEntry.subject
        if !indexKeys.contains(identity.indexKey) { indexKeys.append(identity.indexKey) }
    }

    /// An anonymous user made permanent (an address confirmed, an identity linked): it no longer
    /// expires. Nothing for any other user.
    mutating func makePermanent() {
        guard isAnonymous else { return }
        isAnonymous = false
        pendingUntil = nil
    }

    /// Whether the user is banned at `now` (ms since 1970).
    public func isBanned(at now: Double) -> Bool {
        bannedUntil.map { $0 >= now } ?? false
    }

    /// Whether the user's address still waits for its confirmation.
    public var emailIsPending: Bool { email != nil && emailConfirmedAt == nil }

    /// Whether the user is a sign-up still waiting for its confirmation, by address or number.
    public var isPendingSignUp: Bool { emailIsPending || phoneIsPending }

    /// The stored item. A pending address is marked `emailPending`; users stored before
    /// confirmations existed have neither field and read as confirmed when made.
    public var item: Item {
        var item: Item = [
            "id": .string(id), "providers": .object(providers.mapValues { .string($0) }),
            "createdAt": .number(createdAt), "updatedAt": .number(updatedAt),
        ]
        if let email { item["email"] = .string(email) }
        if let phone { item["phone"] = .string(phone) }
        if let name { item["name"] = .string(name) }
        if let emailConfirmedAt { item["emailConfirmedAt"] = .number(emailConfirmedAt) }
        if emailIsPending { item["emailPending"] = true }
        if phoneIsPending { item["phonePending"] = true }
        if isAnonymous { item["anonymous"] = true }
        if isPendingSignUp || isAnonymous, let pendingUntil { item["ttl"] = .number(pendingUntil) }
        if let lastSignInAt { item["lastSignInAt"] = .number(lastSignInAt) }
        if !metadata.isEmpty { item["metadata"] = .object(metadata) }
        if !appMetadata.isEmpty { item["appMetadata"] = .object(appMetadata) }
        if let phoneConfirmedAt { item["phoneConfirmedAt"] = .number(phoneConfirmedAt) }
        if !indexKeys.isEmpty { item["indexKeys"] = .array(indexKeys.map(JSONValue.string)) }
        if let bannedUntil { item["bannedUntil"] = .number(bannedUntil) }
        return item
    }

    /// Reads a stored item; nil when it is not a user's.
    public init?(item: Item) {
        guard case .string(let id)? = item["id"], case .number(let createdAt)? = item["createdAt"],
            case .number(let updatedAt)? = item["updatedAt"]
        else { return nil }
        self.id = id
        email = item["email"]?.stringValue
        phone = item["phone"]?.stringValue
        name = item["name"]?.stringValue
        providers = (item["providers"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        if case .number(let confirmed)? = item["emailConfirmedAt"] {
            emailConfirmedAt = confirmed
        } else {
            emailConfirmedAt = email == nil || item["emailPending"] == true ? nil : createdAt
        }
        lastSignInAt = item["lastSignInAt"]?.numberValue
        metadata = item["metadata"]?.objectValue ?? [:]
        appMetadata = item["appMetadata"]?.objectValue ?? [:]
        phoneConfirmedAt = item["phoneConfirmedAt"]?.numberValue
        pendingUntil = emailConfirmedAt == nil ? item["ttl"]?.numberValue : nil
        indexKeys = (item["indexKeys"]?.arrayValue ?? []).compactMap(\.stringValue)
        isAnonymous = item["anonymous"] == true
        phoneIsPending = item["phonePending"] == true
        bannedUntil = item["bannedUntil"]?.numberValue
    }
}

extension User {
    /// The user as the API shows it (times in milliseconds since 1970; absent values null).
    public var json: JSONValue {
        [
            "id": .string(id), "email": email.map(JSONValue.string) ?? .null,
            "phone": phone.map(JSONValue.string) ?? .null, "name": name.map(JSONValue.string) ?? .null,
            "providers": .object(providers.mapValues { .string($0) }), "createdAt": .number(createdAt),
            "updatedAt": .number(updatedAt),
        ]
    }
}
