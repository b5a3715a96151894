import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import JOSE
import JOSEHTTP
import LambdaRuntime
import OutboundHTTP

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`). The client secret, when the client has one, is
// read from its Secrets Manager secret (OIDC_CLIENT_SECRET_ARN).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings and the store are checked here: a bad one fails the cold start.
    let settings = try OAuthSettings(environment: environment)
    try FunctionStore.loadLibrary(environment: environment)
    OutboundHTTPClient.preloadInBackground()
    let keys = JWKSCache(url: settings.jwksURL, fetcher: HTTPJWKSFetcher(timeout: .seconds(settings.fetchTimeout)))
    let store = try FunctionStore.open(environment: environment)
    return OAuthCallbackHandler(
        flow: OAuthFlow(settings: settings, issuer: try SessionSettings(environment: environment).issuer, store: store),
        // It begins second steps only: EmailCallback finishes them, with the OTP secret.
        secondFactor: try SecondFactorSignIn(environment: environment, store: store, finishing: false),
        idTokens: ProviderTokenVerifier(
            issuer: settings.issuer, audiences: [settings.clientID], keys: keys, clock: SystemStoreClock()),
        tokens: HTTPTokenEndpoint(client: .shared))
}
