import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`). No signing key: a logout issues no token.
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    return LogoutHandler(
        refreshTokens: RefreshTokens(
            store: store, clock: SystemStoreClock(), settings: try SessionSettings(environment: environment)),
        audit: try AuditLog(environment: environment, store: store, clock: SystemStoreClock()))
}
