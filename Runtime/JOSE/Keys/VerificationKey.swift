import Crypto
import _CryptoExtras

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A public key from a JWK Set, parsed once and ready to verify signatures.
///
/// Only signature keys of the three supported kinds are accepted: RSA (2048 bits or more, an
/// odd exponent of at least 3, not a ROCA modulus), EC P-256 and OKP Ed25519. A key whose `use`
/// is not `sig`, whose `key_ops` lack `verify`, whose `alg` is not the one its type verifies, or
/// that carries private members, is refused: a published key set must not leak private keys,
/// and a key meant for encryption must not verify signatures.
public struct VerificationKey: Sendable {
    enum Material: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
    }

    let material: Material
    /// The key's `kid`, when it has one.
    public let kid: String?
    /// The one algorithm this key verifies (from its type; a stated `alg` must agree).
    public let algorithm: JWSAlgorithm
    /// The RFC 7638 thumbprint, which identifies the key material itself.
    public let thumbprint: String

    /// Parses and checks one public JWK.
    public init(jwk: JWK) throws(JOSEError) {
        if let use = jwk.use, use != "sig" { throw JOSEError.unsupportedKey("use \"\(use)\" is not \"sig\"") }
        if let operations = jwk.keyOps, !operations.contains("verify") {
            throw JOSEError.unsupportedKey("key_ops \(operations) do not include \"verify\"")
        }
        if jwk.hasPrivateMembers { throw JOSEError.malformedKey("a published key must not carry private members") }
        switch jwk.kty {
        case "RSA": (material, algorithm) = (try Self.rsa(jwk), .rs256)
        case "EC": (material, algorithm) = (try Self.p256(jwk), .es256)
        case "OKP": (material, algorithm) = (try Self.ed25519(jwk), .edDSA)
        case "oct": throw JOSEError.unsupportedKey("symmetric (oct) keys never verify tokens")
        default: throw JOSEError.unsupportedKey("kty \(jwk.kty)")
        }
        if let alg = jwk.alg, alg != algorithm.rawValue {
            throw JOSEError.unsupportedKey("alg \(alg) on a \(jwk.kty) key (only \(algorithm.rawValue) is supported)")
        }
        guard let thumbprint = jwk.thumbprint() else { throw JOSEError.malformedKey("no thumbprint") }
        self.kid = jwk.kid
        self.thumbprint = thumbprint
    }

    /// True when `signature` is a valid signature of `message` under this key, with the key's
    /// one algorithm. That the token's `alg` is that algorithm is the caller's check, so the
    /// caller can name the mismatch.
    public func isValidSignature(_ signature: [UInt8], for message: some DataProtocol) -> Bool {
        switch material {
        case .rsa(let key):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: message),
                padding: .insecurePKCS1v1_5
            )
        case .p256(let key):
            // JWS ES256 is r‖s, exactly 64 bytes; DER and any other length are refused.
            guard signature.count == 64,
                let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
            else { return false }
            return key.isValidSignature(parsed, for: SHA256.hash(data: message))
        case .ed25519(let key):
            return key.isValidSignature(signature, for: message)
        }
    }

    private static func member(_ name: String, _ value: String?) throws(JOSEError) -> [UInt8] {
        guard let value else { throw JOSEError.malformedKey("\"\(name)\" is missing") }
        guard let bytes = Base64URL.decode(value), !bytes.isEmpty else {
            throw JOSEError.malformedKey("\"\(name)\" is not base64url")
        }
        return bytes
    }

    private static func rsa(_ jwk: JWK) throws(JOSEError) -> Material {
        let (modulus, exponent) = try jwk.rsaPublicIntegers()
        guard exponent.count > 1 || exponent[0] >= 3, exponent.last! & 1 == 1 else {
            throw JOSEError.insecureKey("RSA public exponent must be odd and at least 3")
        }
        guard !ROCAFingerprint.matches(modulus: modulus) else {
            throw JOSEError.insecureKey("the RSA modulus has the ROCA fingerprint (CVE-2017-15361)")
        }
        do {
            return .rsa(try _RSA.Signing.PublicKey(n: modulus, e: exponent))
        } catch {
            throw JOSEError.malformedKey("\"n\" and \"e\" do not form an RSA public key")
        }
    }

    private static func p256(_ jwk: JWK) throws(JOSEError) -> Material {
        guard jwk.crv == "P-256" else { throw JOSEError.unsupportedKey("EC curve \(jwk.crv ?? "(none)")") }
        let x = try member("x", jwk.x)
        let y = try member("y", jwk.y)
        guard x.count == 32, y.count == 32 else { throw JOSEError.malformedKey("P-256 coordinates are 32 bytes") }
        do {
            return .p256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
        } catch {
            throw JOSEError.malformedKey("the point is not on P-256")
        }
    }

    private static func ed25519(_ jwk: JWK) throws(JOSEError) -> Material {
        guard jwk.crv == "Ed25519" else { throw JOSEError.unsupportedKey("OKP curve \(jwk.crv ?? "(none)")") }
        let x = try member("x", jwk.x)
        guard x.count == 32 else { throw JOSEError.malformedKey("an Ed25519 key is 32 bytes") }
        do {
            return .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
        } catch {
            throw JOSEError.malformedKey("\"x\" is not an Ed25519 public key")
        }
    }
}
