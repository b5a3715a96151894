import GatehouseJSON
import JOSE

/// A credential as a client sends it back, in the JSON of `PublicKeyCredential.toJSON()`
/// (WebAuthn Level 3, §5.1): `id`, `rawId` (the same bytes, base64url), `type` `public-key`,
/// and `response` with the ceremony's members, each base64url. Every member is bounded before
/// it is decoded, so a hostile body costs little.
public struct CredentialResponse: Sendable {
    /// The longest base64url member accepted (an attestation object with a large RSA key is
    /// about 1 KB; 16 KB leaves room and bounds the work).
    public static let maximumMemberLength = 16 * 1024

    /// The credential's id.
    public let id: [UInt8]
    public let clientDataJSON: [UInt8]
    /// A registration's attestation object; nil in an assertion.
    public let attestationObject: [UInt8]?
    /// An assertion's authenticator data, signature and user handle; nil in a registration.
    public let authenticatorData: [UInt8]?
    public let signature: [UInt8]?
    public let userHandle: [UInt8]?

    /// Reads a registration's credential (`response.attestationObject`).
    public static func registration(_ json: JSONValue) throws(WebAuthnError) -> CredentialResponse {
        let response = try Self.response(of: json)
        return CredentialResponse(
            id: try Self.id(of: json), clientDataJSON: try Self.member("clientDataJSON", of: response),
            attestationObject: try Self.member("attestationObject", of: response), authenticatorData: nil,
            signature: nil, userHandle: nil)
    }

    /// Reads an assertion's credential (`response.authenticatorData`, `signature`, and the
    /// `userHandle` a discoverable credential returns).
    public static func assertion(_ json: JSONValue) throws(WebAuthnError) -> CredentialResponse {
        let response = try Self.response(of: json)
        let handle: [UInt8]? =
            switch response["userHandle"] {
            case nil, .null?: nil
            default: try Self.member("userHandle", of: response)
            }
        return CredentialResponse(
            id: try Self.id(of: json), clientDataJSON: try Self.member("clientDataJSON", of: response),
            attestationObject: nil, authenticatorData: try Self.member("authenticatorData", of: response),
            signature: try Self.member("signature", of: response), userHandle: handle)
    }

    /// The `response` object of a `public-key` credential.
    private static func response(of json: JSONValue) throws(WebAuthnError) -> JSONValue {
        guard json["type"] == "public-key" else { throw .malformed("the credential's type is not public-key") }
        guard let response = json["response"], case .object = response else {
            throw .malformed("the credential has no response object")
        }
        return response
    }

    /// The credential's id: `id` and `rawId`, which must be the same bytes.
    private static func id(of json: JSONValue) throws(WebAuthnError) -> [UInt8] {
        let id = try member("id", of: json)
        guard try member("rawId", of: json) == id else { throw .malformed("id and rawId differ") }
        guard (16...AuthenticatorData.maximumCredentialIDLength).contains(id.count) else {
            throw .malformed("a credential id is 16 to 1023 bytes")
        }
        return id
    }

    /// The base64url member `name` of `object`, decoded.
    private static func member(_ name: String, of object: JSONValue) throws(WebAuthnError) -> [UInt8] {
        guard case .string(let text)? = object[name] else { throw .malformed("\(name) is missing or not a string") }
        guard text.utf8.count <= maximumMemberLength else { throw .malformed("\(name) is too long") }
        guard let bytes = Base64URL.decode(text), !bytes.isEmpty else { throw .malformed("\(name) is not base64url") }
        return bytes
    }
}
