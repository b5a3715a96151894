import Foundation

/// One of the signed-in user's passkeys (`GatehouseClient.passkeys`).
public struct GatehousePasskey: Sendable, Equatable, Decodable {
    public var id: String
    /// The user's name for it: the authenticator's model ("iCloud Keychain") until renamed.
    public var friendlyName: String
    public var createdAt: String
    public var lastUsedAt: String?
    /// Whether it may sync (backup eligible) and whether it is synced.
    public var backupEligible: Bool
    public var backedUp: Bool
    /// Set when its counter went back (a cloned authenticator, maybe): it signs nobody in; the
    /// user should remove it.
    public var flagged: Bool

    enum CodingKeys: String, CodingKey {
        case id, flagged
        case friendlyName = "friendly_name"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case backupEligible = "backup_eligible"
        case backedUp = "backed_up"
    }
}
