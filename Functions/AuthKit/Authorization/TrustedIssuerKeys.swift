import JOSE

/// A trusted issuer with the cache of its keys: one per issuer per process.
public struct TrustedIssuerKeys: Sendable {
    public let issuer: TrustedIssuer
    public let keys: JWKSCache
    /// `issuer.verifier`, made once.
    public let verifier: JWTVerifier

    public init(issuer: TrustedIssuer, keys: JWKSCache) {
        self.issuer = issuer
        self.keys = keys
        verifier = issuer.verifier
    }
}
