import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import JOSE
import JOSEHTTP
import LambdaRuntime
import Logging
import OutboundHTTP

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
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
    let sessions = try SessionService(
        environment: environment, store: FunctionStore.open(environment: environment),
        functions: LambdaInvoker(environment: environment))
    return VerifyAppleHandler(
        apple: AppleSignIn(
            identities: AppleIdentityVerifier(settings: apple, keys: keys, clock: SystemStoreClock()),
            sessions: sessions),
        defaultApp: DefaultApp(environment: environment))
}
