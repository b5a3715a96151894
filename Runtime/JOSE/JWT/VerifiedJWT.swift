import GatehouseJSON

/// A token whose signature and claims passed `JWTVerifier`.
public struct VerifiedJWT: Sendable {
    /// The protected header.
    public let header: LazyJSONObject
    /// Every claim of the payload, checked; each is decoded when read (`claims["data"]`), or
    /// all at once with `claims.dictionary`.
    public let claims: LazyJSONObject
    /// The algorithm that verified it.
    public let algorithm: JWSAlgorithm
    /// The `kid` of the key that verified it.
    public let kid: String?
    /// `sub`, when present.
    public let subject: String?
    /// `exp`, seconds since 1970.
    public let expiresAt: Double
}
