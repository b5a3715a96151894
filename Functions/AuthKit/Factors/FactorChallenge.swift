import GatehouseJSON
import StoreCore

/// A challenge of a factor: made by one session, verified from that session only, within
/// `Factors.challengeLifetime`. Its item in `Factors` is keyed by the user's id and
/// `challenge:<id>`, so another user's session cannot even find it.
public struct FactorChallenge: Sendable, Equatable {
    public let id: String
    public let factorID: String
    /// The session that made it (the access token's `sid`).
    public let sessionID: String
    /// Seconds since 1970.
    public let expiresAt: Double
    /// A WebAuthn factor's challenge: the ceremony it asks (`create` while the factor is
    /// unverified, `request` once verified) and the 32 random bytes (base64url) the client's
    /// credential must sign over; nil for a code's challenge.
    public let ceremony: String?
    public let nonce: String?

    /// The sort key of challenge `id`'s item.
    static func entry(_ id: String) -> String { "challenge:\(id)" }

    init(
        id: String, factorID: String, sessionID: String, expiresAt: Double, ceremony: String? = nil,
        nonce: String? = nil
    ) {
        self.id = id
        self.factorID = factorID
        self.sessionID = sessionID
        self.expiresAt = expiresAt
        self.ceremony = ceremony
        self.nonce = nonce
    }

    init?(item: Item) {
        guard case .string(let id)? = item["id"], case .string(let factorID)? = item["factorId"],
            case .string(let sessionID)? = item["sessionId"], case .number(let expiresAt)? = item["expiresAt"]
        else { return nil }
        self.init(
            id: id, factorID: factorID, sessionID: sessionID, expiresAt: expiresAt,
            ceremony: item["ceremony"]?.stringValue, nonce: item["nonce"]?.stringValue)
    }

    /// Its item for `userID`, kept an hour past its expiry so a late verify is told it expired.
    func item(userID: String) -> Item {
        var item: Item = [
            "userId": .string(userID), "entry": .string(Self.entry(id)), "id": .string(id),
            "factorId": .string(factorID), "sessionId": .string(sessionID), "expiresAt": .number(expiresAt),
            "ttl": .number((expiresAt + 3600).rounded(.up)),
        ]
        if let ceremony { item["ceremony"] = .string(ceremony) }
        if let nonce { item["nonce"] = .string(nonce) }
        return item
    }
}
