import Crypto
import _CryptoExtras

/// A credential's public key, from its COSE_Key (RFC 9052/9053) in authenticator data: EC2 P-256
/// with ES256 (-7), RSA with RS256 (-257, 2048 bits or more), OKP Ed25519 with EdDSA (-8). The
/// key type, curve and algorithm must agree, so a key never verifies with another algorithm
/// than the one it was registered with.
public struct COSEKey: Sendable {
    /// COSE's algorithm identifiers Gatehouse verifies.
    public enum Algorithm: Int64, Sendable, CaseIterable {
        case es256 = -7
        case edDSA = -8
        case rs256 = -257
    }

    enum Material: Sendable {
        case p256(P256.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
    }

    public let algorithm: Algorithm
    let material: Material

    /// Parses `cbor`, a COSE_Key map, checking it is a key of one supported kind.
    public init(_ cbor: CBOR) throws(WebAuthnError) {
        guard let kty = cbor[label: 1]?.integer, let alg = cbor[label: 3]?.integer else {
            throw .malformed("the COSE key has no kty or alg")
        }
        guard let algorithm = Algorithm(rawValue: alg) else { throw .unsupportedAlgorithm(alg) }
        self.algorithm = algorithm
        switch (kty, algorithm) {
        case (2, .es256): material = try Self.p256(cbor)
        case (3, .rs256): material = try Self.rsa(cbor)
        case (1, .edDSA): material = try Self.ed25519(cbor)
        default: throw .malformed("COSE key type \(kty) does not go with algorithm \(alg)")
        }
    }

    /// Parses the COSE_Key encoded in `bytes` (as stored with a credential).
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        do {
            try self.init(try CBORDecoder.decode(bytes))
        } catch let error as CBORError {
            throw .malformedCBOR(error)
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw .malformed("the COSE key does not parse")
        }
    }

    /// Whether `signature` signs `message` under this key: ES256 signatures are DER (as
    /// authenticators send them), RS256 PKCS #1 v1.5 with SHA-256, EdDSA the raw 64 bytes.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch material {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: SHA256.hash(data: message))
        case .rsa(let key):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: message),
                padding: .insecurePKCS1v1_5)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: message)
        }
    }

    private static func p256(_ cbor: CBOR) throws(WebAuthnError) -> Material {
        guard cbor[label: -1]?.integer == 1 else { throw .malformed("an EC2 key's curve must be P-256 (1)") }
        guard let x = cbor[label: -2]?.byteString, let y = cbor[label: -3]?.byteString, x.count == 32, y.count == 32
        else { throw .malformed("P-256 coordinates are two byte strings of 32 bytes") }
        do {
            return .p256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
        } catch {
            throw .malformed("the point is not on P-256")
        }
    }

    private static func rsa(_ cbor: CBOR) throws(WebAuthnError) -> Material {
        guard let modulus = cbor[label: -1]?.byteString, let exponent = cbor[label: -2]?.byteString,
            !exponent.isEmpty, exponent.count <= 8
        else { throw .malformed("an RSA key needs n and e") }
        let bits = modulus.drop { $0 == 0 }.count * 8
        guard bits >= 2048, bits <= 8192 else { throw .malformed("an RSA key is 2048 to 8192 bits") }
        guard exponent.last! & 1 == 1, exponent.count > 1 || exponent[0] >= 3 else {
            throw .malformed("the RSA exponent must be odd and at least 3")
        }
        do {
            return .rsa(try _RSA.Signing.PublicKey(n: modulus, e: exponent))
        } catch {
            throw .malformed("n and e do not form an RSA public key")
        }
    }

    private static func ed25519(_ cbor: CBOR) throws(WebAuthnError) -> Material {
        guard cbor[label: -1]?.integer == 6 else { throw .malformed("an OKP key's curve must be Ed25519 (6)") }
        guard let x = cbor[label: -2]?.byteString, x.count == 32 else {
            throw .malformed("an Ed25519 key is 32 bytes")
        }
        do {
            return .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
        } catch {
            throw .malformed("x is not an Ed25519 public key")
        }
    }
}
