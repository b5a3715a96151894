import Foundation
import JOSE

/// A key set served as a JWKS endpoint serves it, whatever the URL: a provider's keys in a test.
struct ServedJWKS: JWKSFetching {
    let jwks: JWKSet

    init(_ keys: [JWK]) { jwks = JWKSet(keys: keys) }

    init(jwks: JWKSet) { self.jwks = jwks }

    func fetchJWKS(from url: String) async throws -> [UInt8] { Array(try JSONEncoder().encode(jwks)) }
}
