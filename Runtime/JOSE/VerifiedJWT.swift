import GatehouseJSON

/// A token whose signature and claims passed `JWTVerifier`.
public struct VerifiedJWT: Sendable {
    /// The protected header.
    public let header: [String: JSONValue]
    /// Every claim of the payload.
    public let claims: [String: JSONValue]
    /// The algorithm that verified it.
    public let algorithm: JWSAlgorithm
    /// The `kid` of the key that verified it.
    public let kid: String?
    /// `sub`, when present.
    public let subject: String?
    /// `exp`, seconds since 1970.
    public let expiresAt: Double
}
