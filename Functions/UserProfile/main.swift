import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Only the store: this function holds no signing key.
    let store = try FunctionStore.open(environment: environment)
    return UserProfileHandler(
        accounts: Accounts(store: store, clock: SystemStoreClock()),
        issuer: try EnvironmentReader(environment: environment).required("ISSUER"),
        audit: try AuditLog(environment: environment, store: store, clock: SystemStoreClock()))
}
