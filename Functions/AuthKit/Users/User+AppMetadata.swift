import GatehouseJSON

extension User {
    /// The user's `app_metadata` as Supabase shows it: what an import kept, with `provider` (the
    /// first way it signed in: `email` when it has an address identity) and `providers` (every
    /// one, sorted). Its answers and its access tokens carry the same object.
    /// An anonymous user has neither yet: `{}`, as Supabase's.
    public var appMetadataWithProviders: [String: JSONValue] {
        if isAnonymous && providers.isEmpty { return appMetadata }
        let providers = self.providers.keys.sorted()
        var metadata = appMetadata
        metadata["provider"] = .string(self.providers["email"] != nil ? "email" : providers.first ?? "email")
        metadata["providers"] = .array(providers.map(JSONValue.string))
        return metadata
    }
}
