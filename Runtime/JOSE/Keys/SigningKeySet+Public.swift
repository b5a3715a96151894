#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SigningKeySet {
    /// The public JWKS of a stored key set, read without building any private key.
    ///
    /// For the code that only publishes keys (the JWKS endpoint): it never holds private key
    /// material, and skips the RSA private-key construction that dominated its start-up. Each
    /// key is still checked: RSA, RS256, a modulus of at least 2048 bits, and a `kid` that is
    /// its RFC 7638 thumbprint; an empty set or a repeated `kid` is refused. A public-only set
    /// is accepted as well.
    public static func publicJWKS(fromJWKSJSON json: some DataProtocol) throws -> JWKSet {
        JWKSet(keys: try readKeys(json, as: publicRSAKey, kid: { $0.kid! }))
    }

    /// The checked public form of one RS256 signing key.
    private static func publicRSAKey(_ jwk: JWK) throws -> JWK {
        guard jwk.kty == "RSA" else { throw JOSEError.unsupportedKey("kty \(jwk.kty) is not RSA") }
        if let alg = jwk.alg, alg != "RS256" { throw JOSEError.unsupportedKey("alg \(alg) on an RSA signing key") }
        _ = try jwk.rsaPublicIntegers()
        var key = JWK(kty: "RSA", use: "sig", alg: "RS256")
        key.n = jwk.n
        key.e = jwk.e
        let kid = key.thumbprint()!
        if let stated = jwk.kid, stated != kid {
            throw JOSEError.malformedKey("kid \(stated) is not the key's RFC 7638 thumbprint \(kid)")
        }
        key.kid = kid
        return key
    }
}
