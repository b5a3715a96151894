import Crypto

/// An EdDSA (Ed25519) private key.
public struct Ed25519SigningKey: JWSSigningKey {
    let key: Curve25519.Signing.PrivateKey
    public let kid: String
    public let publicJWK: JWK
    public var algorithm: JWSAlgorithm { .edDSA }

    /// A new key from the system's CSPRNG.
    public init() {
        key = Curve25519.Signing.PrivateKey()
        var jwk = JWK(kty: "OKP", use: "sig", alg: JWSAlgorithm.edDSA.rawValue)
        jwk.crv = "Ed25519"
        jwk.x = Base64URL.encode(key.publicKey.rawRepresentation)
        kid = jwk.thumbprint()!
        jwk.kid = kid
        publicJWK = jwk
    }

    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        Array(try key.signature(for: message))
    }
}
