import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime
import PasskeyKit

// Deployed, the signing keys are read while the runtime waits for the first event, and without
// a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    let sessions = try SessionService(
        environment: environment, store: store, functions: LambdaInvoker(environment: environment))
    let ceremonies = PasskeyCeremonies(
        store: store, clock: SystemStoreClock(), sessions: sessions,
        settings: try PasskeySettings(environment: environment),
        recentSignIn: try Reauthentication.window(environment: environment))
    return SupabasePasskeysHandler(
        sessions: sessions, ceremonies: ceremonies,
        hosted: HostedPasskeys(
            ceremonies: ceremonies, issuer: try SessionSettings(environment: environment).issuer, apps: sessions.apps))
}
