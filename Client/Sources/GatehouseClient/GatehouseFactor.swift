import Foundation

/// A second factor of the signed-in user (a TOTP authenticator app), as the user's factors list
/// it (`GatehouseClient.factors(apiKey:)`).
public struct GatehouseFactor: Sendable, Equatable, Decodable {
    public var id: String
    /// The user's name for it; may be empty.
    public var friendlyName: String
    /// `totp`.
    public var type: String
    /// `verified` once a code of it was verified, else `unverified` (it expires after a day).
    public var status: String

    /// Whether a code of it was verified: it is a second factor, and the user's sessions can
    /// reach `aal2` with it.
    public var isVerified: Bool { status == "verified" }

    public init(id: String, friendlyName: String, type: String, status: String) {
        self.id = id
        self.friendlyName = friendlyName
        self.type = type
        self.status = status
    }

    enum CodingKeys: String, CodingKey {
        case id, status
        case friendlyName = "friendly_name"
        case type = "factor_type"
    }
}
