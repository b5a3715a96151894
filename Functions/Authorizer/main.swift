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

await Lambda.runBytes {
    // Settings first: a missing or malformed one fails the cold start (reported to /init/error).
    // Deployed without a custom domain, the issuer is the API's URL, from its parameter
    // (ISSUER_PARAMETER), as every function reads it: the same rule, the same value.
    let environment = try await DeployedEnvironment.resolve(ProcessInfo.processInfo.environment)
    let settings = try AuthorizerSettings(environment: environment)
    let keys = JWKSCache(
        url: settings.jwksURL, fetcher: HTTPJWKSFetcher(timeout: .seconds(settings.fetchTimeout)),
        settings: settings.cacheSettings
    )
    // Load libsqlite3, then libcurl on a thread of its own (the dynamic loader loads one library
    // at a time; Debian's libcurl takes about 5 ms here), then fetch the keys, while the store
    // opens and the runtime asks for the first event: that request joins this fetch instead of
    // starting its own. A failed fetch is not fatal: the cache fetches again on the first unknown
    // kid (after its backoff).
    let usesStore = settings.checksSession || settings.checksRegisteredApps
    if usesStore { try FunctionStore.loadLibrary(environment: environment) }
    OutboundHTTPClient.preloadInBackground()
    keys.hydrateInBackground { error in
        Logger(label: "authorizer").warning(
            "JWKS not loaded at start", metadata: ["error": .string(LogSafe.description(of: error))])
    }
    // Other trusted issuers' keys (TRUSTED_ISSUERS), each in a cache of its own, loaded alike.
    let issuers = settings.trustedIssuers.map { issuer in
        let cache = JWKSCache(
            url: issuer.jwksURL, fetcher: HTTPJWKSFetcher(timeout: .seconds(settings.fetchTimeout)),
            settings: settings.cacheSettings)
        cache.hydrateInBackground { error in
            Logger(label: "authorizer").warning(
                "a trusted issuer's JWKS not loaded at start",
                metadata: ["issuer": .string(issuer.issuer), "error": .string(LogSafe.description(of: error))])
        }
        return TrustedIssuerKeys(issuer: issuer, keys: cache)
    }
    // The store only when sessions or apps are checked: an unreachable one fails the cold start.
    let store = try usesStore ? FunctionStore.open(environment: environment) : nil
    let sessions =
        settings.checksSession
        ? store.map { SessionCheck(store: $0, cacheSeconds: settings.sessionCacheSeconds) } : nil
    let apps =
        settings.checksRegisteredApps
        ? store.map { RegisteredAudiences(store: $0, cacheSeconds: settings.appCacheSeconds) } : nil
    return AuthorizerHandler(
        authorizer: AccessTokenAuthorizer(
            verifier: settings.verifier, keys: keys, requiredScopes: settings.requiredScopes, sessions: sessions,
            issuers: issuers, registeredApps: apps)
    )
}
