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
    return SupabaseOtpHandler(
        links: try MagicLinks(
            environment: environment, store: store, remote: AWSSenders(environment: environment), mailsCodes: true),
        phoneCodes: try PhoneCodes.optional(
            environment: environment, store: store, remote: AWSSenders(environment: environment)),
        apps: AppRegistry(store: store), users: UserDirectory(store: store, clock: SystemStoreClock()))
}
