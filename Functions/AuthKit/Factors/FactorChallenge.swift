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

    /// The sort key of challenge `id`'s item.
    static func entry(_ id: String) -> String { "challenge:\(id)" }

    init(id: String, factorID: String, sessionID: String, expiresAt: Double) {
        self.id = id
        self.factorID = factorID
        self.sessionID = sessionID
        self.expiresAt = expiresAt
    }

    init?(item: Item) {
        guard case .string(let id)? = item["id"], case .string(let factorID)? = item["factorId"],
            case .string(let sessionID)? = item["sessionId"], case .number(let expiresAt)? = item["expiresAt"]
        else { return nil }
        self.init(id: id, factorID: factorID, sessionID: sessionID, expiresAt: expiresAt)
    }

    /// Its item for `userID`, kept an hour past its expiry so a late verify is told it expired.
    func item(userID: String) -> Item {
        [
            "userId": .string(userID), "entry": .string(Self.entry(id)), "id": .string(id),
            "factorId": .string(factorID), "sessionId": .string(sessionID), "expiresAt": .number(expiresAt),
            "ttl": .number((expiresAt + 3600).rounded(.up)),
        ]
    }
}
