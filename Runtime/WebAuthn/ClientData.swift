import GatehouseJSON

/// `clientDataJSON` (WebAuthn §5.8.1): what the browser or the platform says it was asked, by
/// which origin. Kept with its bytes, which the signature covers through their hash.
public struct ClientData: Sendable {
    public let type: String
    /// The challenge as the client echoed it: base64url without padding.
    public let challenge: String
    public let origin: String
    /// True when the ceremony ran in a frame of another origin: refused.
    public let crossOrigin: Bool

    /// Parses `bytes`, a JSON object with string `type`, `challenge` and `origin`.
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= 4096, let json = try? JSONValue(parsing: bytes),
            case .string(let type)? = json["type"], case .string(let challenge)? = json["challenge"],
            case .string(let origin)? = json["origin"]
        else { throw .malformed("clientDataJSON is not a JSON object with type, challenge and origin") }
        self.type = type
        self.challenge = challenge
        self.origin = origin
        crossOrigin = json["crossOrigin"] == .bool(true)
    }
}
