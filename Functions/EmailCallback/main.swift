import AWSDelivery
import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    return EmailCallbackHandler(
        links: try MagicLinks(environment: environment, store: store, remote: AWSSenders(environment: environment)),
        secondFactor: try SecondFactorSignIn(environment: environment, store: store),
        apiOrigin: BrowserPost.origin(of: try SessionSettings(environment: environment).issuer))
}
