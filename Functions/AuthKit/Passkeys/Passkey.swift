import GatehouseJSON
import StoreCore

/// A passkey of a user (a WebAuthn credential registered as a first factor), as its item in
/// `Passkeys` holds it: keyed by the user's id and `passkey:<id>`. Its credential id is also the
/// key of an owner item (`Passkeys.ownerKey`), so that the id is registered once across all
/// users and an assertion finds its passkey in one read.
public struct Passkey: Sendable, Equatable {
    /// Gatehouse's id for it (a UUID, Supabase's `id`): what the routes name it by.
    public let id: String
    public let userID: String
    /// The credential id the authenticator chose (base64url).
    public let credentialID: String
    /// The COSE public key exactly as registered (base64url).
    public let publicKey: String
    /// The signature counter last seen: 0 for synced passkeys, which never count.
    public let signCount: UInt32
    /// Whether the credential may be synced (backup eligible), and whether it is (backed up).
    public let backupEligible: Bool
    public let backedUp: Bool
    /// The authenticator's model (AAGUID, hex with dashes; all zeros when it gives none).
    public let aaguid: String
    /// The user's name for it (`friendly_name`).
    public let friendlyName: String
    /// Milliseconds since 1970.
    public let createdAt: Double
    /// Milliseconds since 1970; nil before its first sign-in.
    public let lastUsedAt: Double?
    /// Set when an assertion came with a counter that did not grow: a cloned authenticator,
    /// maybe. A flagged passkey signs nobody in; its owner removes it and registers another.
    public let flagged: Bool
    /// Whether it was registered from an `aal2` session. One registered at `aal1` proves both
    /// factors only while its user has no verified second factor: a passkey an intruder added
    /// before the owner turned MFA on must not skip the owner's factor
    /// (`PasskeyCeremonies.finishSignIn`).
    public let registeredAtAAL2: Bool

    /// The sort key of passkey `id`'s item.
    static func entry(_ id: String) -> String { "passkey:\(id)" }

    public init(
        id: String, userID: String, credentialID: String, publicKey: String, signCount: UInt32,
        backupEligible: Bool, backedUp: Bool, aaguid: String, friendlyName: String, createdAt: Double,
        lastUsedAt: Double? = nil, flagged: Bool = false, registeredAtAAL2: Bool = false
    ) {
        self.id = id
        self.userID = userID
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.aaguid = aaguid
        self.friendlyName = friendlyName
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.flagged = flagged
        self.registeredAtAAL2 = registeredAtAAL2
    }

    /// The passkey an item holds; nil from an item lacking a member.
    init?(item: Item) {
        guard case .string(let userID)? = item["userId"], case .string(let id)? = item["id"],
            case .string(let credentialID)? = item["credentialId"], case .string(let key)? = item["publicKey"],
            case .number(let count)? = item["signCount"], let signCount = UInt32(exactly: count),
            case .number(let createdAt)? = item["createdAt"]
        else { return nil }
        self.init(
            id: id, userID: userID, credentialID: credentialID, publicKey: key, signCount: signCount,
            backupEligible: item["backupEligible"]?.boolValue ?? false, backedUp: item["backedUp"]?.boolValue ?? false,
            aaguid: item["aaguid"]?.stringValue ?? "", friendlyName: item["friendlyName"]?.stringValue ?? "",
            createdAt: createdAt, lastUsedAt: item["lastUsedAt"]?.numberValue,
            flagged: item["flagged"]?.boolValue ?? false, registeredAtAAL2: item["registeredAal"] == "aal2")
    }

    /// The item.
    var item: Item {
        var item: Item = [
            "userId": .string(userID), "entry": .string(Self.entry(id)), "id": .string(id),
            "credentialId": .string(credentialID), "publicKey": .string(publicKey),
            "signCount": .number(Double(signCount)), "backupEligible": .bool(backupEligible),
            "backedUp": .bool(backedUp), "aaguid": .string(aaguid), "friendlyName": .string(friendlyName),
            "createdAt": .number(createdAt), "flagged": .bool(flagged),
            "registeredAal": .string(registeredAtAAL2 ? "aal2" : "aal1"),
        ]
        if let lastUsedAt { item["lastUsedAt"] = .number(lastUsedAt) }
        return item
    }

    /// The key of its item.
    var key: ItemKey { ItemKey(.string(userID), .string(Self.entry(id))) }
}
