import GatehouseJSON
import JOSE

/// Makes S2S assertions the way an app's backend should: what `gatehouse s2s sign` prints,
/// and a reference for app developers writing their own.
public enum S2SAssertionSigner {
    /// Reads an app's private key from PEM: RSA (2048 bits or more) signs RS256, P-256 signs ES256.
    public static func privateKey(pem: String) throws(AppError) -> any JWSSigningKey {
        if let rsa = try? RSASigningKey(pemRepresentation: pem) { return rsa }
        if let ec = try? P256SigningKey(pemRepresentation: pem) { return ec }
        throw .invalid("key", "not an RSA (2048 bits or more) or P-256 private key in PEM")
    }

    /// An assertion for `app` calling `audience` (Gatehouse's `ISSUER`) with `body`, issued at
    /// `now` and valid for `lifetime` seconds, with a fresh random `jti`.
    public static func sign(
        app: String, audience: String, body: some Sequence<UInt8>, key: some JWSSigningKey, now: Double,
        lifetime: Double = S2SVerifier.maximumLifetime
    ) throws -> String {
        let issuedAt = now.rounded(.down)
        return try JWS.signJWT(
            claims: [
                "iss": .string(app), "sub": .string(app), "aud": .string(audience),
                "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime),
                "jti": .string(RandomToken.urlSafe(byteCount: 16)), "body_sha256": .string(SHA256Hex.of(body)),
            ], with: key)
    }
}
