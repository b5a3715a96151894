import AuthKit
import GatehouseJSON

/// The second factors of one row of the export: its `factors` column, the user's rows of
/// Supabase's `auth.mfa_factors` (the query in docs/supabase.md). Verified TOTP factors whose
/// secret reads as base32 come over (`Factors.Imported`); every other factor is left out, each
/// with its reason, for the report: never dropped silently.
struct SupabaseFactorList {
    /// The verified TOTP factors, their secrets decoded, oldest first.
    let totp: [Factors.Imported]
    /// Why each factor left out is, one reason a factor.
    let leftOut: [String]

    /// The reason an encrypted secret gives (`GOTRUE_SECURITY_DB_ENCRYPTION`).
    static let encrypted = "a TOTP factor whose secret Supabase stored encrypted (GOTRUE_SECURITY_DB_ENCRYPTION)"

    init(_ listed: [JSONValue]) {
        var totp: [Factors.Imported] = []
        var leftOut: [String] = []
        for entry in listed {
            switch Self.read(entry) {
            case .success(let factor) where totp.count < Factors.maximumFactors: totp.append(factor)
            case .success: leftOut.append("a TOTP factor over the \(Factors.maximumFactors) a user may have")
            case .failure(let reason): leftOut.append(reason.description)
            }
        }
        self.totp = totp
        self.leftOut = leftOut
    }

    /// Why one factor is not brought.
    struct LeftOut: Error, CustomStringConvertible {
        let description: String
    }

    /// One factor, or why it stays behind.
    static func read(_ entry: JSONValue) -> Result<Factors.Imported, LeftOut> {
        let type = entry["factor_type"]?.stringValue ?? "unknown"
        guard type == "totp" else { return .failure(LeftOut(description: "a \(type.prefix(16)) factor")) }
        guard entry["status"]?.stringValue == "verified" else {
            return .failure(LeftOut(description: "an unverified TOTP factor"))
        }
        guard let id = entry["id"]?.stringValue.flatMap(UUIDText.canonical),
            let created = entry["created_at"]?.stringValue.flatMap(PostgresTimestamp.milliseconds)
        else { return .failure(LeftOut(description: "a TOTP factor without a UUID id and created_at")) }
        let secret = entry["secret"]?.stringValue ?? ""
        if secret.hasPrefix("{") { return .failure(LeftOut(description: encrypted)) }
        guard let bytes = Base32.decode(secret), bytes.count >= 10 else {
            return .failure(LeftOut(description: "a TOTP factor whose secret is not base32 of at least 80 bits"))
        }
        let updated = entry["updated_at"]?.stringValue.flatMap(PostgresTimestamp.milliseconds) ?? created
        let name = entry["friendly_name"]?.stringValue ?? ""
        return .success(
            Factors.Imported(
                id: id, friendlyName: String(name.prefix(256)), createdAt: created, updatedAt: updated, secret: bytes))
    }
}
