/// A private key that signs JWS: RS256 (`RSASigningKey`), ES256 (`P256SigningKey`) or EdDSA
/// (`Ed25519SigningKey`).
public protocol JWSSigningKey: Sendable {
    /// The algorithm its signatures are for.
    var algorithm: JWSAlgorithm { get }
    /// The `kid` put in the header (the RFC 7638 thumbprint of the public key).
    var kid: String { get }
    /// The public JWK, as a key set publishes it.
    var publicJWK: JWK { get }
    /// The raw JWS signature of `message` (for ES256, r‖s).
    func sign(_ message: [UInt8]) throws -> [UInt8]
}

extension RSASigningKey: JWSSigningKey {
    public var algorithm: JWSAlgorithm { .rs256 }

    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        try signRS256(message)
    }
}
