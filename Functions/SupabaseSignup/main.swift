import AWSDelivery
import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
// The signing keys are read only when anonymous sign-in is on: a sign-up starts no session.
let named = DeployedEnvironment.process
let anonymous = (try? AnonymousSignIn.isEnabled(in: named)) ?? false
await Lambda.runHTTP(
    DeployedEnvironment.starting(anonymous ? named : named.filter { $0.key != "SIGNING_KEYS_SECRET" })
) { environment in
    // Settings, the store (and with anonymous sign-in the keys) are checked here: a bad one
    // fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    let remote = AWSSenders(environment: environment)
    let signUps = try PasswordSignUp(environment: environment, store: store, remote: remote)
    return SupabaseSignupHandler(
        signUps: signUps,
        phones: try PhoneCodes.optional(environment: environment, store: store, remote: remote).map {
            PhoneSignUp(signUps: signUps, codes: $0)
        },
        anonymous: try AnonymousSignIn.isEnabled(in: environment)
            ? AnonymousSignIn(
                sessions: try SessionService(
                    environment: environment, store: store, functions: LambdaInvoker(environment: environment)),
                store: store,
                clock: SystemStoreClock())
            : nil)
}
