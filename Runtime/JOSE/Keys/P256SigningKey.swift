import Crypto

/// An ES256 private key (ECDSA P-256 with SHA-256), signatures as r‖s.
public struct P256SigningKey: JWSSigningKey {
    let key: P256.Signing.PrivateKey
    public let kid: String
    public let publicJWK: JWK
    public var algorithm: JWSAlgorithm { .es256 }

    /// A new key from the system's CSPRNG.
    public init() {
        self.init(key: P256.Signing.PrivateKey())
    }

    /// Reads a PEM private key (SEC 1 `EC PRIVATE KEY` or PKCS#8 `PRIVATE KEY`) on P-256.
    public init(pemRepresentation pem: String) throws {
        do {
            self.init(key: try P256.Signing.PrivateKey(pemRepresentation: pem))
        } catch {
            throw JOSEError.malformedKey("not a P-256 private key in PEM")
        }
    }

    init(key: P256.Signing.PrivateKey) {
        self.key = key
        let point = Array(key.publicKey.x963Representation)
        var jwk = JWK(kty: "EC", use: "sig", alg: JWSAlgorithm.es256.rawValue)
        jwk.crv = "P-256"
        jwk.x = Base64URL.encode(point[1...32])
        jwk.y = Base64URL.encode(point[33...64])
        kid = jwk.thumbprint()!
        jwk.kid = kid
        publicJWK = jwk
    }

    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        Array(try key.signature(for: SHA256.hash(data: message)).rawRepresentation)
    }
}
