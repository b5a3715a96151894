import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

// Deployed, the public keys are read from their parameter (PUBLIC_KEYS_PARAMETER, which
// `gatehouse keys publish` writes) while the runtime waits for the first event, and without a
// custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`). It checks
// tokens and signs none, so it never holds the private keys.
await Lambda.runHTTP(DeployedEnvironment.starting(publicKeys: true)) { environment in
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    return SupabaseLogoutHandler(
        apps: AppRegistry(store: store),
        tokens: AccessTokenVerifier(
            publicKeys: try PublicSigningKeys.load(environment: environment),
            issuer: try SessionSettings(environment: environment).issuer, clock: SystemStoreClock()),
        store: store, audit: try AuditLog(environment: environment, store: store, clock: SystemStoreClock()))
}
