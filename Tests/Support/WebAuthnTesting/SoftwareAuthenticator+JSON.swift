import GatehouseJSON
import JOSE

extension SoftwareAuthenticator {
    /// The credential a registration under `options` (W3C creation options, as the server sent
    /// them) makes, as `PublicKeyCredential.toJSON()` gives it.
    public func registrationJSON(options: JSONValue, format: String = "none") throws -> JSONValue {
        let (client, attestation) = try register(challenge: options["challenge"]?.stringValue ?? "", format: format)
        return credential([
            "clientDataJSON": .string(Base64URL.encode(client)),
            "attestationObject": .string(Base64URL.encode(attestation)),
            "transports": ["internal"],
        ])
    }

    /// The credential an assertion under `options` (W3C request options) makes, for the user
    /// whose handle is `userHandle`, as `toJSON()` gives it.
    public func assertionJSON(options: JSONValue, userHandle: [UInt8]) throws -> JSONValue {
        let (client, data, signature) = try assert(challenge: options["challenge"]?.stringValue ?? "")
        return credential([
            "clientDataJSON": .string(Base64URL.encode(client)),
            "authenticatorData": .string(Base64URL.encode(data)), "signature": .string(Base64URL.encode(signature)),
            "userHandle": .string(Base64URL.encode(userHandle)),
        ])
    }

    private func credential(_ response: [String: JSONValue]) -> JSONValue {
        let id = Base64URL.encode(credentialID)
        return [
            "id": .string(id), "rawId": .string(id), "type": "public-key", "response": .object(response),
            "clientExtensionResults": [:], "authenticatorAttachment": "platform",
        ]
    }
}
