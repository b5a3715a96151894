import GatehouseJSON
import StoreCore

extension Accounts {
    /// Everything Gatehouse keeps about `userID` that its owner may take away (`GET
    /// /users/me/export`): the profile with its confirmations, sign-in times and both metadata,
    /// its identities, its second factors, its passkeys and its live sessions; never a password
    /// hash, a factor's secret, a passkey's key or a token. Times in milliseconds since 1970.
    /// `SessionError.userNotFound` when there is no such user.
    public func export(userID: String) async throws -> JSONValue {
        let user = try await profile(userID: userID)
        let factors = try await Factors.list(userID: userID, in: store)
        let passkeys = try await store.query(
            Passkeys.table, partition: .string(userID), sortKey: .beginsWith("passkey:"), limit: nil, ascending: true
        ).compactMap(Passkey.init(item:))
        let sessions = try await store.query(
            RefreshTokens.sessionsTable, partition: .string(userID), sortKey: nil, limit: nil, ascending: true
        ).compactMap { SessionState($0) }
        return [
            "user": Self.exported(user),
            "identities": .array(
                user.providers.sorted { $0.key < $1.key }.map {
                    ["provider": .string(SignInIdentity.base(of: $0.key)), "subject": .string($0.value)]
                }),
            "factors": .array(factors.map(Self.exported)),
            "passkeys": .array(passkeys.map(Self.exported)),
            "sessions": .array(sessions.map(Self.exported)),
        ]
    }

    static func exported(_ user: User) -> JSONValue {
        func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
        return [
            "id": .string(user.id), "email": user.email.map(JSONValue.string) ?? .null,
            "emailConfirmedAt": optional(user.email == nil ? nil : user.emailConfirmedAt),
            "phone": user.phone.map(JSONValue.string) ?? .null, "phoneConfirmedAt": optional(user.phoneConfirmedAt),
            "name": user.name.map(JSONValue.string) ?? .null, "createdAt": .number(user.createdAt),
            "updatedAt": .number(user.updatedAt), "lastSignInAt": optional(user.lastSignInAt),
            "userMetadata": .object(user.metadata), "appMetadata": .object(user.appMetadata),
            "isAnonymous": .bool(user.isAnonymous),
        ]
    }

    /// A factor without its secret: its kind, name, status and times (a phone factor's number).
    static func exported(_ factor: Factor) -> JSONValue {
        var json: [String: JSONValue] = [
            "id": .string(factor.id), "type": .string(factor.type), "friendlyName": .string(factor.friendlyName),
            "status": .string(factor.status), "createdAt": .number(factor.createdAt),
            "updatedAt": .number(factor.updatedAt),
        ]
        if let phone = factor.phone { json["phone"] = .string(phone) }
        return .object(json)
    }

    /// A passkey without its key or credential id: its name, model and times.
    static func exported(_ passkey: Passkey) -> JSONValue {
        [
            "id": .string(passkey.id), "friendlyName": .string(passkey.friendlyName), "aaguid": .string(passkey.aaguid),
            "backedUp": .bool(passkey.backedUp), "createdAt": .number(passkey.createdAt),
            "lastUsedAt": passkey.lastUsedAt.map(JSONValue.number) ?? .null,
        ]
    }

    /// A live session: its app, how it signed in, its assurance, when it started and ends.
    static func exported(_ session: SessionState) -> JSONValue {
        [
            "id": .string(session.sessionID), "app": .string(session.app), "method": .string(session.method),
            "aal": .string(session.aal), "startedAt": .number(session.startedAt * 1000),
            "endsAt": .number(session.endsAt * 1000),
        ]
    }
}
