import AuthKit
import GatehouseJSON

extension SupabaseUserExport {
    /// `user` as a row of Supabase's `auth.users` with its `identities` (no secret): the columns
    /// `SupabaseUserRow` reads back into the same user (`banned_until` only when it has a ban). A
    /// name the metadata does not hold goes in as `full_name`, where Supabase's providers leave it.
    static func row(of user: User) -> [String: JSONValue] {
        func time(_ milliseconds: Double?) -> JSONValue {
            milliseconds.map { .string(PostgresTimestamp.text(milliseconds: $0)) } ?? .null
        }
        var metadata = user.metadata
        if let name = user.name, metadata["full_name"] == nil, metadata["name"] == nil {
            metadata["full_name"] = .string(name)
        }
        let identities = self.identities(of: user)
        var appMetadata = user.appMetadata
        let providers = identities.compactMap { $0["provider"]?.stringValue }
        var seen: Set<String> = []
        appMetadata["providers"] = .array(providers.filter { seen.insert($0).inserted }.map(JSONValue.string))
        if let first = providers.first { appMetadata["provider"] = .string(first) }
        var row: [String: JSONValue] = [
            "id": .string(user.id), "email": user.email.map(JSONValue.string) ?? .null,
            "email_confirmed_at": time(user.email == nil ? nil : user.emailConfirmedAt),
            "phone": user.phone.map { .string(String($0.drop { $0 == "+" })) } ?? .null,
            "phone_confirmed_at": time(user.phone == nil ? nil : user.phoneConfirmedAt ?? user.createdAt),
            "created_at": time(user.createdAt), "updated_at": time(user.updatedAt),
            "last_sign_in_at": time(user.lastSignInAt), "raw_user_meta_data": .object(metadata),
            "raw_app_meta_data": .object(appMetadata), "identities": .array(identities), "is_anonymous": false,
        ]
        if user.bannedUntil != nil { row["banned_until"] = time(user.bannedUntil) }
        return row
    }

    /// `user`'s providers as Supabase's identities (`provider`, `provider_id`): its address's
    /// and number's under the user's id, as Supabase gives them, each other one under its
    /// subject, by entry name (`apple` before `apple#2`, so an import names them alike).
    static func identities(of user: User) -> [JSONValue] {
        user.providers.sorted { $0.key < $1.key }.map { entry, subject in
            let provider = String(entry.prefix { $0 != "#" })
            let id = provider == "email" || provider == "phone" ? user.id : subject
            return ["provider": .string(provider), "provider_id": .string(id)]
        }
    }

    /// A TOTP factor as a row of Supabase's `auth.mfa_factors`, its secret in base32.
    static func factor(_ factor: Factors.Imported) -> JSONValue {
        [
            "id": .string(factor.id), "factor_type": "totp", "status": "verified",
            "friendly_name": .string(factor.friendlyName),
            "created_at": .string(PostgresTimestamp.text(milliseconds: factor.createdAt)),
            "updated_at": .string(PostgresTimestamp.text(milliseconds: factor.updatedAt)),
            "secret": .string(Base32.encode(factor.secret)),
        ]
    }
}
