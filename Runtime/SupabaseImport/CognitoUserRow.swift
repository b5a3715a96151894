import GatehouseJSON

/// A user of a Cognito user pool, as `ListUsers` gives it, made into the row of Supabase's
/// export that `SupabaseUserImport` reads: its `sub` as the user's id and as a `cognito`
/// identity (when it has a verified address or number), its address and number confirmed as Cognito verified them, its names in the
/// metadata (`given_name`, `family_name`, and `full_name` from `name` or the two), its groups in
/// `app_metadata.groups`, its creation and change times. Never a password: Cognito exports none.
/// A user Cognito disabled is marked banned (Supabase's permanent ban), so it is imported banned
/// for good.
public enum CognitoUserRow {
    /// The row of `user` (a member of `ListUsers`' `Users`), in `groups`.
    public static func row(_ user: JSONValue, groups: [String]) -> [String: JSONValue] {
        var attributes: [String: String] = [:]
        for attribute in user["Attributes"]?.arrayValue ?? [] {
            if let name = attribute["Name"]?.stringValue, let value = attribute["Value"]?.stringValue {
                attributes[name] = value
            }
        }
        let created = time(user["UserCreateDate"])
        let sub = attributes["sub"].map { JSONValue.string($0.lowercased()) } ?? .null
        var row: [String: JSONValue] = [
            "id": sub, "created_at": created, "updated_at": time(user["UserLastModifiedDate"]),
            "raw_user_meta_data": .object(metadata(attributes)),
            "raw_app_meta_data": groups.isEmpty ? [:] : ["groups": .array(groups.map(JSONValue.string))],
        ]
        var identities: [JSONValue] = []
        if let email = attributes["email"] {
            row["email"] = .string(email)
            if attributes["email_verified"] == "true" {
                row["email_confirmed_at"] = created
                identities.append(["provider": "email", "provider_id": sub])
            }
        }
        if let phone = attributes["phone_number"] {
            row["phone"] = .string(phone)
            if attributes["phone_number_verified"] == "true" {
                row["phone_confirmed_at"] = created
                identities.append(["provider": "phone", "provider_id": sub])
            }
        }
        // The `cognito` identity only beside a verified address or number: Gatehouse signs no
        // one in by it, and beside an unverified address alone it would make the import drop
        // that address (`SupabaseUserRow.dropUnconfirmedEmail`), leaving a user no one can
        // reach; without it the user is the sign-up waiting for its confirmation it was.
        if !identities.isEmpty { identities.insert(["provider": "cognito", "provider_id": sub], at: 0) }
        row["identities"] = .array(identities)
        if user["Enabled"] == false { row["banned_until"] = "9999-12-31T23:59:59+00:00" }
        return row
    }

    /// The names Cognito keeps, as Supabase's providers leave them in `user_metadata`.
    static func metadata(_ attributes: [String: String]) -> [String: JSONValue] {
        var metadata: [String: JSONValue] = [:]
        for name in ["given_name", "family_name"] {
            if let value = attributes[name], !value.isEmpty { metadata[name] = .string(value) }
        }
        let joined = [attributes["given_name"], attributes["family_name"]].compactMap { $0 }.filter { !$0.isEmpty }
        if let full = attributes["name"].flatMap({ $0.isEmpty ? nil : $0 })
            ?? (joined.isEmpty ? nil : joined.joined(separator: " "))
        {
            metadata["full_name"] = .string(full)
        }
        return metadata
    }

    /// A Cognito time (seconds since 1970, as its JSON protocol sends them; or text) as a
    /// PostgreSQL timestamp's text; null when absent.
    static func time(_ value: JSONValue?) -> JSONValue {
        switch value {
        case .number(let seconds)?: .string(PostgresTimestamp.text(milliseconds: seconds * 1000))
        case .string(let text)?: .string(text)
        default: .null
        }
    }
}
