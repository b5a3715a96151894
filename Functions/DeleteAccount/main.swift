import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Deployed without a custom domain, the issuer is the API's URL, from its parameter (ISSUER_PARAMETER).
    let environment = try await DeployedEnvironment.resolve(environment)
    // Only the store: this function holds no signing key.
    return DeleteAccountHandler(
        accounts: Accounts(
            store: try FunctionStore.open(environment: environment), clock: SystemStoreClock()),
        issuer: try EnvironmentReader(environment: environment).required("ISSUER"),
        recentSignIn: try Reauthentication.window(environment: environment))
}
