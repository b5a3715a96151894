import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime
import StoreCore

// It signs no token, checks none and sends nothing: the store, the password settings and the
// clock. It names no issuer.
await Lambda.runHTTP(DeployedEnvironment.starting(issuer: false)) { environment in
    // Settings and the store are checked here: a bad one fails the cold start.
    SupabaseAdminHandler(
        store: try FunctionStore.open(environment: environment), clock: SystemStoreClock(),
        hasher: try PasswordHasher(environment: environment), policy: try PasswordPolicy(environment: environment))
}
