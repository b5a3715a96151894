import JOSE
import JOSEHTTP
import Synchronization

/// The keys of the JWT authorizers' issuers: one JWKS cache per issuer, made at its first
/// token and shared by every route and request after, with the cache's own fetch rules.
public final class JWTAuthorizerKeys: Sendable {
    private let caches = Mutex<[String: JWKSCache]>([:])
    private let fetcher: any JWKSFetching

    /// Keys fetched with `fetcher`: by default the functions' HTTPS client, allowed its whole
    /// 5 s (a local issuer may be start-api itself, on a machine busy with the functions).
    public init(fetcher: any JWKSFetching = HTTPJWKSFetcher(timeout: .seconds(5))) {
        self.fetcher = fetcher
    }

    /// The cache of `authorizer`'s issuer.
    func cache(for authorizer: JWTAuthorizer) -> JWKSCache {
        caches.withLock { caches in
            if let cache = caches[authorizer.jwksURL] { return cache }
            let cache = JWKSCache(url: authorizer.jwksURL, fetcher: fetcher)
            caches[authorizer.jwksURL] = cache
            return cache
        }
    }
}
