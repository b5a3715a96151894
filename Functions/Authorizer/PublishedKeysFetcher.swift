import AWSSecrets
import AuthKit
import JOSE
import OutboundHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Gatehouse's own public keys, read where they are published rather than fetched through the
/// API and the `Jwks` function: deployed, the public keys' SSM parameter (`PUBLIC_KEYS_PARAMETER`,
/// one `GetParameter` call per fetch); locally, the public members of the key file (or value)
/// the functions sign with (`SIGNING_KEYS_FILE`, `SIGNING_KEYS`: no call, and no libcurl to load).
///
/// The parameter's first read starts when the fetcher is made, at the very start of the cold
/// start, and the cache's first fetch takes its answer; each later fetch (an unknown `kid` after
/// a rotation, the keys' maximum age) reads again, under the cache's rules (`JWKSCache`).
struct PublishedKeysFetcher: JWKSFetching {
    /// What the cache names these keys by in its errors and logs.
    let label: String
    private let environment: [String: String]
    private let http: OutboundHTTPClient
    private let first: FirstRead?

    /// A fetcher for Gatehouse's own keys, unless `environment` names where else they are
    /// (`JWKS_URL`) or names another issuer for the Authorizer (`JWT_ISSUER`): the keys published
    /// are the deployment's own, for its own issuer only. Nil too when it names no key set and no
    /// parameter.
    static func startingNow(_ environment: [String: String], http: OutboundHTTPClient = .shared) -> Self? {
        let named = ["JWKS_URL", "JWT_ISSUER"].contains { !(environment[$0] ?? "").isEmpty }
        guard !named else { return nil }
        if SigningKeySecret.givesKeysDirectly(environment) {
            return Self(label: "the key file's public keys", environment: environment, http: http, first: nil)
        }
        guard PublicKeysParameter.isNamed(in: environment) else { return nil }
        OutboundHTTPClient.preloadInBackground()
        return Self(
            label: "ssm:" + (environment[PublicKeysParameter.nameVariable] ?? ""), environment: environment,
            http: http, first: FirstRead(Task { try await PublicKeysParameter.read(environment, http: http) }))
    }

    func fetchJWKS(from url: String) async throws -> [UInt8] {
        guard let first else {
            return Array(try JSONEncoder().encode(PublicSigningKeys.load(environment: environment)))
        }
        if let task = first.take() { return Array(try await task.value.utf8) }
        return Array(try await PublicKeysParameter.read(environment, http: http).utf8)
    }
}
