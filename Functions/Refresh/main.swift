import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    return RefreshHandler(
        sessions: try SessionService(
            environment: environment, store: FunctionStore.open(environment: environment),
            functions: LambdaInvoker(environment: environment)))
}
