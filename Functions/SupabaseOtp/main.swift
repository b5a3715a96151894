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
    return SupabaseOtpHandler(
        links: try MagicLinks(environment: environment, store: store, remote: AWSSenders(environment: environment)),
        phoneCodes: try PhoneCodes.optional(
            environment: environment, store: store, remote: AWSSenders(environment: environment)),
        apps: AppRegistry(store: store))
}
