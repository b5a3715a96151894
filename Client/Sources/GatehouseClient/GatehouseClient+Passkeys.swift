import Foundation

/// Passkeys through Gatehouse's Supabase-compatible `/auth/v1/passkeys` routes: each call
/// carries the app's publishable key (`apiKey`), and those of the signed-in user its access
/// token. The credential the platform's authenticator makes goes back as the JSON of
/// `PublicKeyCredential.toJSON()` (`GatehousePasskeyJSON` makes it from `ASAuthorization`'s
/// results on Apple platforms). A refused call throws `GatehouseClientError.refused` with
/// Supabase's code (`webauthn_verification_failed`, `webauthn_challenge_not_found`, …).
extension GatehouseClient {
    private struct Begun: Decodable {
        let challengeID: String
        let options: JSONObject
        let expiresAt: Double

        enum CodingKeys: String, CodingKey {
            case options
            case challengeID = "challenge_id"
            case expiresAt = "expires_at"
        }
    }

    /// A JSON object kept as its bytes, with the members the client reads.
    private struct JSONObject: Decodable {
        let data: Data
        let challenge: String
        let relyingPartyID: String

        init(from decoder: any Decoder) throws {
            let value = try JSONValueBox(from: decoder)
            data = try JSONSerialization.data(withJSONObject: value.object, options: [.sortedKeys])
            challenge = value.object["challenge"] as? String ?? ""
            let rp = value.object["rp"] as? [String: Any]
            relyingPartyID = rp?["id"] as? String ?? value.object["rpId"] as? String ?? ""
        }
    }

    /// Starts registering a passkey for the signed-in user: the options for
    /// `ASAuthorizationPlatformPublicKeyCredentialProvider` or `navigator.credentials.create()`.
    public func passkeyRegistrationOptions(apiKey: String) async throws -> GatehousePasskeyCeremony {
        try ceremony(
            try await send(
                "POST", "/auth/v1/passkeys/registration/options", body: Data("{}".utf8),
                headers: try await passkeyHeaders(apiKey, signedIn: true)))
    }

    /// Ends the registration of `challengeID` with the authenticator's `credential` (the JSON of
    /// `toJSON()`): the new passkey.
    public func registerPasskey(challengeID: String, credential: Data, apiKey: String) async throws -> GatehousePasskey
    {
        try decode(
            try await send(
                "POST", "/auth/v1/passkeys/registration/verify",
                body: try Self.answer(challengeID: challengeID, credential: credential),
                headers: try await passkeyHeaders(apiKey, signedIn: true)))
    }

    /// Starts a username-less passkey sign-in (no session needed): the options for
    /// `createCredentialAssertionRequest` or `navigator.credentials.get()`.
    public func passkeySignInOptions(apiKey: String) async throws -> GatehousePasskeyCeremony {
        try ceremony(
            try await send(
                "POST", "/auth/v1/passkeys/authentication/options", body: Data("{}".utf8),
                headers: try await passkeyHeaders(apiKey, signedIn: false)))
    }

    /// Ends the sign-in of `challengeID` with the authenticator's assertion `credential`: the
    /// session (at `aal2`) is kept, as every sign-in's, and its user answered.
    @discardableResult
    public func signInWithPasskey(challengeID: String, credential: Data, apiKey: String) async throws -> GatehouseUser {
        let session = try GatehouseSession(
            answer: try await send(
                "POST", "/auth/v1/passkeys/authentication/verify",
                body: try Self.answer(challengeID: challengeID, credential: credential),
                headers: try await passkeyHeaders(apiKey, signedIn: false)))
        return try await signIn(with: session)
    }

    /// The signed-in user's passkeys, oldest first.
    public func passkeys(apiKey: String) async throws -> [GatehousePasskey] {
        try decode(
            try await send(
                "GET", "/auth/v1/passkeys", body: nil, headers: try await passkeyHeaders(apiKey, signedIn: true)))
    }

    /// Renames the passkey `id` (1 to 120 characters).
    @discardableResult
    public func renamePasskey(_ id: String, to name: String, apiKey: String) async throws -> GatehousePasskey {
        try decode(
            try await send(
                "PATCH", "/auth/v1/passkeys/\(try Self.pathSegment(id, unknown: "validation_failed"))",
                body: try JSONSerialization.data(withJSONObject: ["friendly_name": name]),
                headers: try await passkeyHeaders(apiKey, signedIn: true)))
    }

    /// Removes the passkey `id` (from an `aal2` session once the user has a verified factor).
    /// The sessions it signed in end, this one too if it did: the next call then finds the
    /// client signed out (`GatehouseClientError.signedOut`).
    public func deletePasskey(_ id: String, apiKey: String) async throws {
        _ = try await send(
            "DELETE", "/auth/v1/passkeys/\(try Self.pathSegment(id, unknown: "validation_failed"))", body: nil,
            headers: try await passkeyHeaders(apiKey, signedIn: true))
    }

    private func ceremony(_ data: Data) throws -> GatehousePasskeyCeremony {
        let begun: Begun = try decode(data)
        return GatehousePasskeyCeremony(
            challengeID: begun.challengeID, options: begun.options.data, challenge: begun.options.challenge,
            relyingPartyID: begun.options.relyingPartyID, expiresAt: Date(timeIntervalSince1970: begun.expiresAt))
    }

    /// `{challenge_id, credential}`, the credential's JSON as it is.
    private static func answer(challengeID: String, credential: Data) throws -> Data {
        guard let object = try? JSONSerialization.jsonObject(with: credential), object is [String: Any] else {
            throw GatehouseClientError.refused(
                status: 400, code: "validation_failed", message: "credential is required")
        }
        return try JSONSerialization.data(withJSONObject: ["challenge_id": challengeID, "credential": object])
    }

    private func passkeyHeaders(_ apiKey: String, signedIn: Bool) async throws -> [String: String] {
        var headers = ["apikey": apiKey, "Content-Type": "application/json"]
        if signedIn { headers["Authorization"] = "Bearer \(try await accessToken())" }
        return headers
    }
}

/// Any JSON object, decoded into Foundation's types (to keep the options' bytes as they came).
private struct JSONValueBox: Decodable {
    let object: [String: Any]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        object = try Self.object(container)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static func object(_ container: KeyedDecodingContainer<AnyKey>) throws -> [String: Any] {
        var result: [String: Any] = [:]
        for key in container.allKeys {
            result[key.stringValue] = try value(container.superDecoder(forKey: key))
        }
        return result
    }

    private static func value(_ decoder: any Decoder) throws -> Any {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) { return try object(keyed) }
        if var list = try? decoder.unkeyedContainer() {
            var items: [Any] = []
            while !list.isAtEnd { items.append(try value(try list.superDecoder())) }
            return items
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { return NSNull() }
        if let bool = try? single.decode(Bool.self) { return bool }
        if let number = try? single.decode(Double.self) { return number }
        return try single.decode(String.self)
    }
}
