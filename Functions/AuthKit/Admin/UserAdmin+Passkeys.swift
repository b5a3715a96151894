extension UserAdmin {
    /// The user `id`'s passkeys, oldest first.
    public func passkeys(id: String, in passkeys: Passkeys) async throws -> [Passkey] {
        _ = try await user(id: id)
        return try await passkeys.list(userID: id)
    }

    /// Removes the user `id`'s passkey `passkeyID` and ends the sessions it signed in
    /// (`Passkeys.remove`); `UserAdminError.passkeyNotFound` when the user has none of that id.
    public func deletePasskey(_ passkeyID: String, userID id: String, in passkeys: Passkeys) async throws {
        _ = try await user(id: id)
        do {
            try await passkeys.remove(passkeyID, userID: id, by: auditActor, app: auditApp)
        } catch PasskeyError.passkeyNotFound {
            throw UserAdminError.passkeyNotFound
        }
    }
}
