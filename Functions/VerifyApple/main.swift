import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import JOSE
import JOSEHTTP
import LambdaRuntime
import Logging
import OutboundHTTP

await Lambda.runHTTP { environment in
    // Deployed, the signing keys come from a secret (SIGNING_KEYS_SECRET) and, without a custom
    // domain, the issuer from its parameter (ISSUER_PARAMETER): read once here.
    let environment = try await DeployedEnvironment.resolve(environment)
    // Settings, the signing keys and the store are checked here: a bad one fails the cold start.
    let apple = try AppleSettings(environment: environment)
    let keys = JWKSCache(url: apple.jwksURL, fetcher: HTTPJWKSFetcher(timeout: .seconds(apple.fetchTimeout)))
    // Apple's keys load beside the rest of the start (see the Authorizer); the first request
    // joins the fetch. A failure is not fatal: tokens are refused with `jwks_fetch_failed` until a
    // fetch after the cache's backoff succeeds.
    try FunctionStore.loadLibrary(environment: environment)
    OutboundHTTPClient.preloadInBackground()
    keys.hydrateInBackground { error in
        Logger(label: "verify-apple").warning(
            "Apple's keys not loaded at start", metadata: ["error": .string(LogSafe.description(of: error))])
    }
    let sessions = try SessionService(environment: environment, store: FunctionStore.open(environment: environment))
    return VerifyAppleHandler(
        apple: AppleSignIn(
            identities: AppleIdentityVerifier(settings: apple, keys: keys, clock: SystemStoreClock()),
            sessions: sessions),
        defaultApp: DefaultApp(environment: environment))
}
