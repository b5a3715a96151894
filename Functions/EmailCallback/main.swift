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
    return EmailCallbackHandler(
        links: try MagicLinks(
            environment: environment, store: FunctionStore.open(environment: environment),
            remote: AWSSenders(environment: environment)),
        apiOrigin: BrowserPost.origin(of: try SessionSettings(environment: environment).issuer))
}
