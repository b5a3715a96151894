import AWSDelivery
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Settings and the store are checked here: a bad one fails the cold start.
    return SendMagicLinkHandler(
        links: try MagicLinks(
            environment: environment, store: FunctionStore.open(environment: environment),
            remote: AWSSenders(environment: environment)),
        defaultApp: DefaultApp(environment: environment))
}
