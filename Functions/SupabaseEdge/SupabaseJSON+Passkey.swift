import AuthKit
import GatehouseJSON
import LambdaRuntime

extension SupabaseJSON {
    /// A passkey as supabase/auth lists it (`PasskeyListItem`: `id`, `friendly_name`,
    /// `created_at`, `last_used_at` once used), with Gatehouse's `backup_eligible`, `backed_up`
    /// and `flagged` beside (Supabase's clients ignore them).
    public static func passkey(_ passkey: Passkey) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(passkey.id), "friendly_name": .string(passkey.friendlyName),
            "created_at": .string(UTCTimestamp.string(milliseconds: passkey.createdAt)),
            "backup_eligible": .bool(passkey.backupEligible), "backed_up": .bool(passkey.backedUp),
            "flagged": .bool(passkey.flagged),
        ]
        if let lastUsedAt = passkey.lastUsedAt {
            object["last_used_at"] = .string(UTCTimestamp.string(milliseconds: lastUsedAt))
        }
        return .object(object)
    }
}
