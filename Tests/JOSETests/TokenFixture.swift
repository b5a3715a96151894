import Crypto
import GatehouseJSON
import _CryptoExtras

@testable import JOSE

/// Keys, a key set and a token builder for the verifier tests. Tokens are assembled from raw
/// header and payload text, so a test can write what no well-behaved signer would.
struct TokenFixture: Sendable {
    static let shared = TokenFixture()

    static let now: Double = 1_800_000_000
    static let issuer = "https://issuer.test"

    let rsa: RSASigningKey
    let p256: P256SigningKey
    let ed25519: Ed25519SigningKey
    /// Another RSA key, not in the set: the attacker's.
    let stranger: RSASigningKey
    let keys: VerificationKeySet

    init() {
        rsa = try! RSASigningKey.generate()
        p256 = P256SigningKey()
        ed25519 = Ed25519SigningKey()
        stranger = try! RSASigningKey.generate()
        keys = VerificationKeySet(jwks: [rsa.publicJWK, p256.publicJWK, ed25519.publicJWK])
    }

    var verifier: JWTVerifier {
        JWTVerifier(issuer: Self.issuer, audiences: ["app", "other-app"], algorithms: [.rs256, .es256, .edDSA])
    }

    /// Claims a valid token carries, as JSON text; `overrides` replaces or adds members
    /// (a nil value removes one).
    static func claims(_ overrides: [String: JSONValue?] = [:]) -> String {
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "aud": "app", "sub": "user-1", "iat": .number(now - 10),
            "exp": .number(now + 300), "data": ["email": "a@example.com"],
        ]
        for (name, value) in overrides { claims[name] = value }
        return JSONValue.object(claims).serialized
    }

    /// `BASE64URL(header).BASE64URL(payload).BASE64URL(signature by key)`.
    static func token(header: String, payload: String, signedBy key: some JWSSigningKey) -> String {
        let input = Base64URL.encode(header.utf8) + "." + Base64URL.encode(payload.utf8)
        return input + "." + Base64URL.encode(try! key.sign(Array(input.utf8)))
    }

    /// A token with a standard header for `key` (`alg` and `kid`) and `payload`.
    static func token(payload: String = claims(), signedBy key: some JWSSigningKey) -> String {
        token(header: #"{"alg":"\#(key.algorithm.rawValue)","kid":"\#(key.kid)"}"#, payload: payload, signedBy: key)
    }

    /// An RSA key pair below the 2048-bit floor, as its public JWK and a signer.
    static func weakRSA() throws -> (jwk: JWK, sign: @Sendable ([UInt8]) throws -> [UInt8]) {
        let key = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        let primitives = try key.publicKey.getKeyPrimitives()
        var jwk = JWK(kty: "RSA", kid: "weak", use: "sig", alg: "RS256")
        jwk.n = Base64URL.encode(RSASigningKey.unsigned(primitives.modulus))
        jwk.e = Base64URL.encode(RSASigningKey.unsigned(primitives.publicExponent))
        return (
            jwk, { Array(try key.signature(for: SHA256.hash(data: $0), padding: .insecurePKCS1v1_5).rawRepresentation) }
        )
    }
}
