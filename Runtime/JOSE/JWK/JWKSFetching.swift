/// Where a `JWKSCache` gets its documents: an HTTP client in a function (`HTTPJWKSFetcher` in
/// the JOSEHTTP module), anything else in tests.
public protocol JWKSFetching: Sendable {
    /// The JWK Set document at `url`. Throws for a transport failure, a status other than 200,
    /// a body over the size cap, or a fetch that takes longer than the time limit.
    func fetchJWKS(from url: String) async throws -> [UInt8]
}
