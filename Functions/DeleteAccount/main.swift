import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Deployed without a custom domain, the issuer is the API's URL, from its parameter (ISSUER_PARAMETER).
    let environment = try await DeployedEnvironment.resolve(environment)
    // The store and the OTP secret (the mailed nonces are kept under it): this function holds
    // no signing key.
    let store = try FunctionStore.open(environment: environment)
    return DeleteAccountHandler(
        accounts: Accounts(store: store, clock: SystemStoreClock()),
        nonces: ReauthenticationNonces(
            store: store, clock: SystemStoreClock(), secret: try OTPSecret.optional(environment: environment)),
        issuer: try EnvironmentReader(environment: environment).required("ISSUER"),
        recentSignIn: try Reauthentication.window(environment: environment))
}
