import AWSSecrets
import AuthKit
import FunctionStore
import JOSE
import JOSEHTTP
import LambdaRuntime
import Logging
import OutboundHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

let given = ProcessInfo.processInfo.environment
// Gatehouse's own public keys, where they are published: deployed, their parameter
// (PUBLIC_KEYS_PARAMETER), one call started now, while the runtime asks for the first event;
// locally, the key file's public members, with no call (`PublishedKeysFetcher`).
let publishedKeys = PublishedKeysFetcher.startingNow(given)
// Without a custom domain, the issuer is the first event's API's URL, so the handler is built on
// that event (`DeployedEnvironment.starting`); otherwise during initialisation, where a missing
// or malformed setting fails the cold start (reported to /init/error). An issuer named for the
// Authorizer alone (`JWT_ISSUER`: it guards another issuer's tokens) is never built from events.
let ownIssuer = (given["JWT_ISSUER"] ?? "").isEmpty
await Lambda.runBytes(DeployedEnvironment.starting(given, issuer: ownIssuer)) { environment in
    let settings = try AuthorizerSettings(environment: environment)
    let timeout = Duration.seconds(settings.fetchTimeout)
    let keys: JWKSCache =
        if let publishedKeys {
            JWKSCache(url: publishedKeys.label, fetcher: publishedKeys, settings: settings.cacheSettings)
        } else {
            JWKSCache(
                url: settings.jwksURL, fetcher: HTTPJWKSFetcher(timeout: timeout), settings: settings.cacheSettings)
        }
    // Load libcurl on a thread of its own when keys are fetched over HTTPS (Debian's takes about
    // 5 ms here), then fetch the keys while the runtime asks for the first event: that request
    // joins this fetch instead of starting its own. A failed fetch is not fatal: the cache fetches
    // again on the first unknown kid (after its backoff). The store, only when sessions or apps
    // are checked, opens on another thread meanwhile: the first request needs it only once the
    // token's signature is checked.
    let usesStore = settings.checksSession || settings.checksRegisteredApps
    if publishedKeys == nil || !settings.trustedIssuers.isEmpty { OutboundHTTPClient.preloadInBackground() }
    let store = usesStore ? FunctionStore.openInBackground(environment: environment) : nil
    keys.hydrateInBackground { error in
        Logger(label: "authorizer").warning(
            "JWKS not loaded at start", metadata: ["error": .string(LogSafe.description(of: error))])
    }
    // Other trusted issuers' keys (TRUSTED_ISSUERS), each in a cache of its own, loaded alike.
    let issuers = settings.trustedIssuers.map { issuer in
        let cache = JWKSCache(
            url: issuer.jwksURL, fetcher: HTTPJWKSFetcher(timeout: timeout), settings: settings.cacheSettings)
        cache.hydrateInBackground { error in
            Logger(label: "authorizer").warning(
                "a trusted issuer's JWKS not loaded at start",
                metadata: ["issuer": .string(issuer.issuer), "error": .string(LogSafe.description(of: error))])
        }
        return TrustedIssuerKeys(issuer: issuer, keys: cache)
    }
    let sessions =
        settings.checksSession
        ? store.map { SessionCheck(store: $0, cacheSeconds: settings.sessionCacheSeconds) } : nil
    let apps =
        settings.checksRegisteredApps
        ? store.map { RegisteredAudiences(store: $0, cacheSeconds: settings.appCacheSeconds) } : nil
    return AuthorizerHandler(
        authorizer: AccessTokenAuthorizer(
            verifier: settings.verifier, keys: keys, requiredScopes: settings.requiredScopes, sessions: sessions,
            issuers: issuers, registeredApps: apps, requiredAAL: settings.requiredAAL)
    )
}
