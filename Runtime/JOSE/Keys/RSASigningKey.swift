import Crypto
import SwiftASN1
import _CryptoExtras

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An RSA private key that signs RS256 (RSASSA-PKCS1-v1_5 with SHA-256), with its JWK form
/// and RFC 7638 thumbprint as `kid`.
public struct RSASigningKey: Sendable {
    /// The smallest modulus accepted, in bits.
    public static let minimumBits = 2048

    let key: _RSA.Signing.PrivateKey
    /// The RFC 7638 thumbprint of the public key.
    public let kid: String
    /// The public members (`n`, `e`) as base64url.
    public let publicJWK: JWK

    /// Generates a new key of `bits` (2048 by default) from the system's CSPRNG.
    public static func generate(bits: Int = 2048) throws -> RSASigningKey {
        guard bits >= minimumBits else { throw JOSEError.weakKey(bits: bits) }
        return try RSASigningKey(key: _RSA.Signing.PrivateKey(keySize: .init(bitCount: bits)))
    }

    /// Reads a private RSA JWK. Its `kid`, when present, must equal the thumbprint, so a key set
    /// edited by hand cannot publish a key under a name that belongs to another key.
    public init(jwk: JWK) throws {
        guard jwk.kty == "RSA" else { throw JOSEError.unsupportedKey("kty \(jwk.kty) is not RSA") }
        if let alg = jwk.alg, alg != "RS256" { throw JOSEError.unsupportedKey("alg \(alg) on an RSA signing key") }
        func member(_ name: String, _ value: String?) throws -> [UInt8] {
            guard let value else { throw JOSEError.malformedKey("RSA private key without \"\(name)\"") }
            guard let bytes = Base64URL.decode(value), !bytes.isEmpty else {
                throw JOSEError.malformedKey("\"\(name)\" is not base64url")
            }
            return bytes
        }
        let key: _RSA.Signing.PrivateKey
        do {
            key = try _RSA.Signing.PrivateKey(
                n: member("n", jwk.n), e: member("e", jwk.e), d: member("d", jwk.d),
                p: member("p", jwk.p), q: member("q", jwk.q)
            )
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError.malformedKey("the RSA members do not form a valid key")
        }
        try self.init(key: key)
        if let kid = jwk.kid, kid != self.kid {
            throw JOSEError.malformedKey("kid \(kid) is not the key's RFC 7638 thumbprint \(self.kid)")
        }
    }

    /// Reads a PEM private key (PKCS#1 `RSA PRIVATE KEY` or PKCS#8 `PRIVATE KEY`), as
    /// `openssl genpkey -algorithm RSA` writes it. Keys under 2048 bits are refused.
    public init(pemRepresentation pem: String) throws {
        let key: _RSA.Signing.PrivateKey
        do {
            key = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw JOSEError.malformedKey("not an RSA private key in PEM")
        }
        try self.init(key: key)
    }

    init(key: _RSA.Signing.PrivateKey) throws {
        guard key.keySizeInBits >= Self.minimumBits else { throw JOSEError.weakKey(bits: key.keySizeInBits) }
        self.key = key
        let primitives = try key.publicKey.getKeyPrimitives()
        var jwk = JWK(kty: "RSA", use: "sig", alg: "RS256")
        jwk.n = Base64URL.encode(Self.unsigned(primitives.modulus))
        jwk.e = Base64URL.encode(Self.unsigned(primitives.publicExponent))
        let kid = jwk.thumbprint()!
        jwk.kid = kid
        self.kid = kid
        self.publicJWK = jwk
    }

    /// The key with its private members (`d`, `p`, `q`, `dp`, `dq`, `qi`), for the key set file.
    /// Never publish it: `publicJWK` is the published form.
    public func privateJWK() throws -> JWK {
        // PKCS#1 RSAPrivateKey: SEQUENCE { version, n, e, d, p, q, dp, dq, qi }.
        let integers: [ArraySlice<UInt8>]
        do {
            let root = try DER.parse(Array(key.derRepresentation))
            integers = try DER.sequence(of: ArraySlice<UInt8>.self, identifier: .sequence, rootNode: root)
        } catch {
            throw JOSEError.malformedKey("could not read the private key's PKCS#1 form")
        }
        guard integers.count == 9 else { throw JOSEError.malformedKey("unexpected PKCS#1 structure") }
        var jwk = publicJWK
        jwk.d = Base64URL.encode(Self.unsigned(integers[3]))
        jwk.p = Base64URL.encode(Self.unsigned(integers[4]))
        jwk.q = Base64URL.encode(Self.unsigned(integers[5]))
        jwk.dp = Base64URL.encode(Self.unsigned(integers[6]))
        jwk.dq = Base64URL.encode(Self.unsigned(integers[7]))
        jwk.qi = Base64URL.encode(Self.unsigned(integers[8]))
        return jwk
    }

    /// The modulus size in bits.
    public var bits: Int { key.keySizeInBits }

    /// An RS256 signature over `message`.
    public func signRS256(_ message: some DataProtocol) throws -> [UInt8] {
        Array(try key.signature(for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5).rawRepresentation)
    }

    /// JWK members are unsigned big-endian integers without leading zero octets (RFC 7518 §2).
    public static func unsigned(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let trimmed = Array(bytes.drop(while: { $0 == 0 }))
        return trimmed.isEmpty ? [0] : trimmed
    }
}
