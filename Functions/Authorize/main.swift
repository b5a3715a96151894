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
    let flow = OAuthFlow(
        settings: try OAuthSettings(environment: environment),
        issuer: try SessionSettings(environment: environment).issuer, store: store)
    return AuthorizeHandler(
        flow: flow,
        hosted: HostedSignIn(
            flow: flow,
            links: try MagicLinks(environment: environment, store: store, remote: AWSSenders(environment: environment))),
        defaultApp: DefaultApp(environment: environment))
}
