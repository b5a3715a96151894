import AWSSecrets
import JOSE
import OutboundHTTP

/// Gatehouse's own public keys, deployed, from where `gatehouse keys publish` writes them: the
/// public keys' SSM parameter (`PUBLIC_KEYS_PARAMETER`), one `GetParameter` call per fetch,
/// instead of through the API and the `Jwks` function.
///
/// The first read starts when the fetcher is made, at the very start of the cold start, and the
/// cache's first fetch takes its answer; each later fetch (an unknown `kid` after a rotation, the
/// keys' maximum age) reads the parameter again, under the cache's rules (`JWKSCache`).
struct PublishedKeysFetcher: JWKSFetching {
    /// What the cache names these keys by in its errors and logs.
    let label: String
    private let environment: [String: String]
    private let http: OutboundHTTPClient
    private let first: FirstRead

    /// A fetcher whose first read has started, when `environment` names the parameter and gives
    /// no key set directly (a local run's key file: the keys are then fetched from `JWKS_URL` or
    /// the issuer's JWKS, as any issuer's), no `JWKS_URL` and no `JWT_ISSUER` (the keys published
    /// are Gatehouse's own, for its own issuer only); nil otherwise.
    static func startingNow(_ environment: [String: String], http: OutboundHTTPClient = .shared) -> Self? {
        let named = ["JWKS_URL", "JWT_ISSUER"].contains { !(environment[$0] ?? "").isEmpty }
        guard PublicKeysParameter.isNamed(in: environment), !named else { return nil }
        return Self(environment: environment, http: http)
    }

    private init(environment: [String: String], http: OutboundHTTPClient) {
        self.environment = environment
        self.http = http
        label = "ssm:" + (environment[PublicKeysParameter.nameVariable] ?? "")
        OutboundHTTPClient.preloadInBackground()
        first = FirstRead(Task { try await PublicKeysParameter.read(environment, http: http) })
    }

    func fetchJWKS(from url: String) async throws -> [UInt8] {
        if let task = first.take() { return Array(try await task.value.utf8) }
        return Array(try await PublicKeysParameter.read(environment, http: http).utf8)
    }
}
