import JOSE

/// The signing keys' public halves, for a function that checks or serves Gatehouse's tokens and
/// never signs one (`Jwks`, Supabase's `/logout`): deployed, the JWK Set `gatehouse keys publish`
/// wrote to the stack's parameter, which the function's cold start put in `PUBLIC_KEYS`
/// (AWSSecrets' `PublicKeysParameter.resolve`); locally, the public members of the key file or
/// value (`SIGNING_KEYS_FILE`, `SIGNING_KEYS`), which win. The private set is never read.
public enum PublicSigningKeys {
    /// The variable the published set is in.
    public static let variable = "PUBLIC_KEYS"

    /// The public JWK Set `environment` gives; `SigningKeyStoreError.notConfigured` with none.
    public static func load(environment: [String: String]) throws -> JWKSet {
        if let location = SigningKeyLocation.fromEnvironment(environment) {
            return try SigningKeyStore(location: location).loadPublicJWKS()
        }
        guard let published = environment[variable], !published.isEmpty else {
            throw SigningKeyStoreError.notConfigured
        }
        return try SigningKeySet.publicJWKS(fromJWKSJSON: Array(published.utf8))
    }
}
