import AuthKit
import JOSE
import JOSEHTTP
import LambdaRuntime
import Logging
import Store

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

await Lambda.runBytes {
    // Settings first: a missing or malformed one fails the cold start (reported to /init/error).
    let environment = ProcessInfo.processInfo.environment
    let settings = try AuthorizerSettings(environment: environment)
    // The store only when sessions are checked: an unreachable one fails the cold start.
    let sessions =
        try settings.checksSession
        ? SessionCheck(store: SQLiteStore(environment: environment), cacheSeconds: settings.sessionCacheSeconds) : nil
    let keys = JWKSCache(
        url: settings.jwksURL, fetcher: HTTPJWKSFetcher(timeout: .seconds(settings.fetchTimeout)),
        settings: settings.cacheSettings
    )
    // Fetch the keys while the runtime asks for the first event: that request joins this fetch
    // instead of starting its own. A failure is not fatal: the cache fetches again on the first
    // unknown kid (after its backoff).
    Task {
        do {
            try await keys.hydrate()
        } catch {
            Logger(label: "authorizer").warning("JWKS not loaded at start", metadata: ["error": "\(error)"])
        }
    }
    return AuthorizerHandler(
        authorizer: AccessTokenAuthorizer(
            verifier: settings.verifier, keys: keys, requiredScopes: settings.requiredScopes, sessions: sessions)
    )
}
