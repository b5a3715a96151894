/// The JWS algorithms this module signs and verifies (RFC 7518 §3, RFC 8037 §3.1).
///
/// Deliberately short: `none` and the HMAC family are not here, so no configuration can allow
/// them, and a verifier that only knows public keys can never be tricked into treating a public
/// key as an HMAC secret.
public enum JWSAlgorithm: String, Sendable, CaseIterable, Hashable {
    /// RSASSA-PKCS1-v1_5 with SHA-256, RSA keys of 2048 bits or more.
    case rs256 = "RS256"
    /// ECDSA on P-256 with SHA-256; the signature is r‖s, 64 bytes (RFC 7518 §3.4).
    case es256 = "ES256"
    /// Ed25519 (RFC 8037).
    case edDSA = "EdDSA"

    /// The JWK `kty` a key must have to verify this algorithm.
    public var keyType: String {
        switch self {
        case .rs256: "RSA"
        case .es256: "EC"
        case .edDSA: "OKP"
        }
    }

    /// True for the names that must never verify anything from a key set, whatever a verifier
    /// allows: `none` and HMAC (`HS256`, `HS384`, `HS512`, any `HS…`).
    static func isForbidden(_ name: String) -> Bool {
        name.lowercased() == "none" || name.hasPrefix("HS")
    }
}
