import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // The store and the OTP secret (the mailed nonces are kept under it): this function holds
    // no signing key.
    let store = try FunctionStore.open(environment: environment)
    var accounts = Accounts(store: store, clock: SystemStoreClock())
    accounts.audit = try AuditLog(environment: environment, store: store, clock: SystemStoreClock())
    return DeleteAccountHandler(
        accounts: accounts,
        nonces: ReauthenticationNonces(
            store: store, clock: SystemStoreClock(), secret: try OTPSecret.optional(environment: environment)),
        issuer: try EnvironmentReader(environment: environment).required("ISSUER"),
        recentSignIn: try Reauthentication.window(environment: environment))
}
