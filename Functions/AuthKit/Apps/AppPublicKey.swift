import Crypto
import GatehouseJSON
import JOSE
import _CryptoExtras

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads an app's S2S public key as a developer has it: a PEM public key (RSA or P-256), or
/// a JWK. The result carries its RFC 7638 thumbprint as `kid`.
public enum AppPublicKey {
    public static func jwk(from text: String) throws(AppError) -> JWK {
        var jwk: JWK
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if trimmed.hasPrefix("-----BEGIN") {
            guard !trimmed.contains("PRIVATE KEY") else {
                throw .invalid("public-key", "this is a private key; give the public key")
            }
            if let rsa = try? _RSA.Signing.PublicKey(pemRepresentation: trimmed),
                let primitives = try? rsa.getKeyPrimitives()
            {
                jwk = JWK(kty: "RSA", use: "sig", alg: "RS256")
                jwk.n = Base64URL.encode(RSASigningKey.unsigned(primitives.modulus))
                jwk.e = Base64URL.encode(RSASigningKey.unsigned(primitives.publicExponent))
            } else if let ec = try? P256.Signing.PublicKey(pemRepresentation: trimmed) {
                let point = Array(ec.x963Representation)  // 0x04 ‖ x ‖ y
                jwk = JWK(kty: "EC", use: "sig", alg: "ES256")
                jwk.crv = "P-256"
                jwk.x = Base64URL.encode(point[1...32])
                jwk.y = Base64URL.encode(point[33...64])
            } else {
                throw .invalid("public-key", "not an RSA (2048 bits or more) or P-256 public key in PEM")
            }
        } else {
            // The JWK Set reader's own strict key reader, on the JSON parser that refuses repeated names.
            guard
                case .object(let object)? = try? JSONValue(parsing: Array(trimmed.utf8), rejectingDuplicateKeys: true),
                let decoded = try? JWK(object: object)
            else {
                throw .invalid("public-key", "neither a PEM public key nor a JWK")
            }
            guard !decoded.hasPrivateMembers else {
                throw .invalid("public-key", "the JWK carries private members; give the public key")
            }
            jwk = decoded
        }
        jwk.kid = jwk.thumbprint()
        return jwk
    }
}
