import AWSDelivery
import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Deployed without a custom domain, the issuer is the API's URL, from its parameter (ISSUER_PARAMETER).
    let environment = try await DeployedEnvironment.resolve(environment)
    // Settings and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    let settings = try SessionSettings(environment: environment)
    return EmailMagicLinkHandler(
        assertions: S2SVerifier(store: store, clock: SystemStoreClock(), audience: settings.issuer),
        links: try MagicLinks(environment: environment, store: store, remote: AWSSenders(environment: environment)))
}
