import JOSE
import JOSEHTTP
import Synchronization

/// The keys of the JWT authorizers' issuers: for each issuer, a JWKS cache and the verifier of
/// its tokens, made at its first token and shared by every route and request after, with the
/// cache's own fetch rules.
public final class JWTAuthorizerKeys: Sendable {
    /// One issuer's keys and verifier (RS256, its `iss`, no skew; audiences are the gateway's to
    /// check, as `aud` or `client_id`).
    struct Issuer: Sendable {
        let keys: JWKSCache
        let verifier: JWTVerifier
    }

    private let issuers = Mutex<[String: Issuer]>([:])
    private let fetcher: any JWKSFetching

    /// Keys fetched with `fetcher`: by default the functions' HTTPS client, allowed its whole
    /// 5 s (a local issuer may be start-api itself, on a machine busy with the functions).
    public init(fetcher: any JWKSFetching = HTTPJWKSFetcher(timeout: .seconds(5))) {
        self.fetcher = fetcher
    }

    /// The keys and verifier of `authorizer`'s issuer.
    func issuer(of authorizer: JWTAuthorizer) -> Issuer {
        issuers.withLock { issuers in
            if let known = issuers[authorizer.issuer] { return known }
            let made = Issuer(
                keys: JWKSCache(url: authorizer.jwksURL, fetcher: fetcher),
                verifier: JWTVerifier(
                    issuer: authorizer.issuer, audiences: [], algorithms: [.rs256], clockSkew: 0, checksAudience: false)
            )
            issuers[authorizer.issuer] = made
            return made
        }
    }
}
