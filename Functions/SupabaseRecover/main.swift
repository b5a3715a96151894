import AWSDelivery
import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings and the store are checked here: a bad one fails the cold start. No signing key:
    // a recovery starts no session.
    let store = try FunctionStore.open(environment: environment)
    let remote = AWSSenders(environment: environment)
    let signUps = try PasswordSignUp(environment: environment, store: store, remote: remote)
    return SupabaseRecoverHandler(
        signUps: signUps,
        phones: try PhoneCodes.optional(environment: environment, store: store, remote: remote).map {
            PhoneSignUp(signUps: signUps, codes: $0)
        })
}
