import GatehouseJSON
import StoreCore

/// A challenge a passkey ceremony began with, kept until it is answered once or for
/// `Passkeys.challengeLifetime`. A registration's is the user's (under their id, with the
/// session that asked); a sign-in's belongs to nobody yet (under `challenge:<id>`), only to the
/// app that asked.
public struct PasskeyChallenge: Sendable, Equatable {
    /// What a challenge is for.
    public enum Purpose: String, Sendable {
        case registration, authentication
    }

    /// Its id (`challenge_id`).
    public let id: String
    public let purpose: Purpose
    /// The challenge itself, base64url (32 random bytes): what the client data must carry.
    public let challenge: String
    /// The app whose key asked for it.
    public let app: String
    /// A registration's user and the session that asked; nil for a sign-in's.
    public let userID: String?
    public let sessionID: String?
    /// Seconds since 1970.
    public let expiresAt: Double

    public init(
        id: String, purpose: Purpose, challenge: String, app: String, userID: String?, sessionID: String?,
        expiresAt: Double
    ) {
        self.id = id
        self.purpose = purpose
        self.challenge = challenge
        self.app = app
        self.userID = userID
        self.sessionID = sessionID
        self.expiresAt = expiresAt
    }

    /// The key of challenge `id` of `purpose`, the registration's of `userID`.
    static func key(_ id: String, purpose: Purpose, userID: String?) -> ItemKey {
        switch purpose {
        case .registration: ItemKey(.string(userID ?? ""), .string("challenge:\(id)"))
        case .authentication: ItemKey(.string("challenge:\(id)"), .string("authentication"))
        }
    }

    var key: ItemKey { Self.key(id, purpose: purpose, userID: userID) }

    /// The item; it outlives `expiresAt` by a lifetime, so that a late answer is told it is
    /// expired, not unknown.
    func item(lifetime: Double) -> Item {
        var item: Item = [
            "id": .string(id), "purpose": .string(purpose.rawValue), "challenge": .string(challenge),
            "app": .string(app), "expiresAt": .number(expiresAt), "ttl": .number((expiresAt + lifetime).rounded(.up)),
        ]
        if let sessionID { item["sessionId"] = .string(sessionID) }
        if case .string(let partition) = key.partition { item["userId"] = .string(partition) }
        if case .string(let entry)? = key.sort { item["entry"] = .string(entry) }
        return item
    }

    /// The challenge an item holds; nil from anything else.
    init?(item: Item, userID: String?) {
        guard case .string(let id)? = item["id"], let purpose = item["purpose"]?.stringValue.flatMap(Purpose.init),
            case .string(let challenge)? = item["challenge"], case .string(let app)? = item["app"],
            case .number(let expiresAt)? = item["expiresAt"]
        else { return nil }
        self.init(
            id: id, purpose: purpose, challenge: challenge, app: app, userID: userID,
            sessionID: item["sessionId"]?.stringValue, expiresAt: expiresAt)
    }
}
