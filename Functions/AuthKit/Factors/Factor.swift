import GatehouseJSON
import StoreCore

/// A second factor of a user (a TOTP authenticator app, a phone texted codes: `PhoneFactors`, or a
/// WebAuthn credential: `FactorCredential`),
/// as its item in `Factors` holds it: keyed by the user's id and `factor:<id>`. An unverified
/// factor expires (`Factors.unverifiedLifetime`); verifying it removes its `ttl`. A TOTP
/// factor's secret is sealed (`FactorSecretBox`); a phone factor has none, only its number.
public struct Factor: Sendable, Equatable {
    public let id: String
    public let userID: String
    /// The user's name for it (`friendly_name`); may be empty.
    public let friendlyName: String
    /// `totp`, `phone` or `webauthn`.
    public let type: String
    /// Whether a code of it was verified once (Supabase's `verified`, else `unverified`).
    public let verified: Bool
    /// Milliseconds since 1970.
    public let createdAt: Double
    /// Milliseconds since 1970.
    public let updatedAt: Double
    /// The last time step whose code was accepted (0 before any): a code of that step or an
    /// earlier one is refused, so each code works once.
    public let lastStep: Int64
    /// The secret, sealed (empty for a phone factor).
    let sealedSecret: String
    /// A phone factor's number (E.164, `PhoneNumber.value`); nil for a TOTP factor.
    public let phone: String?
    /// A verified WebAuthn factor's credential (`FactorCredential`); nil for any other factor.
    public let credential: FactorCredential?

    /// The sort key of factor `id`'s item.
    static func entry(_ id: String) -> String { "factor:\(id)" }

    /// The factor an item holds; nil from an item lacking a member.
    init?(item: Item) {
        guard case .string(let userID)? = item["userId"], case .string(let id)? = item["id"],
            case .string(let type)? = item["factorType"], case .string(let status)? = item["status"],
            case .number(let createdAt)? = item["createdAt"], case .number(let updatedAt)? = item["updatedAt"],
            case .number(let lastStep)? = item["lastStep"]
        else { return nil }
        let sealed = item["secret"]?.stringValue
        let phone = item["phone"]?.stringValue
        // A TOTP factor needs its secret, a phone factor its number, a verified WebAuthn factor
        // its credential.
        let credential = FactorCredential(item: item)
        switch type {
        case "phone": guard phone != nil else { return nil }
        case FactorCredential.factorType: guard status != "verified" || credential != nil else { return nil }
        default: guard sealed != nil else { return nil }
        }
        self.init(
            id: id, userID: userID, friendlyName: item["friendlyName"]?.stringValue ?? "", type: type,
            verified: status == "verified", createdAt: createdAt, updatedAt: updatedAt, lastStep: Int64(lastStep),
            sealedSecret: sealed ?? "", phone: phone, credential: credential)
    }

    init(
        id: String, userID: String, friendlyName: String, type: String, verified: Bool, createdAt: Double,
        updatedAt: Double, lastStep: Int64, sealedSecret: String, phone: String? = nil,
        credential: FactorCredential? = nil
    ) {
        self.id = id
        self.userID = userID
        self.friendlyName = friendlyName
        self.type = type
        self.verified = verified
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastStep = lastStep
        self.sealedSecret = sealedSecret
        self.phone = phone
        self.credential = credential
    }

    /// Supabase's status word.
    public var status: String { verified ? "verified" : "unverified" }

    /// The item, expiring at `ttl` (nil once verified).
    func item(ttl: Double?) -> Item {
        var item: Item = [
            "userId": .string(userID), "entry": .string(Self.entry(id)), "id": .string(id),
            "friendlyName": .string(friendlyName), "factorType": .string(type), "status": .string(status),
            "createdAt": .number(createdAt), "updatedAt": .number(updatedAt), "lastStep": .number(Double(lastStep)),
        ]
        if !sealedSecret.isEmpty { item["secret"] = .string(sealedSecret) }
        if let phone { item["phone"] = .string(phone) }
        if let credential { item.merge(credential.members) { $1 } }
        if let ttl { item["ttl"] = .number(ttl) }
        return item
    }
}
