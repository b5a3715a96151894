import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Only the store: this function holds no signing key.
    DeleteAccountHandler(
        accounts: Accounts(
            store: try FunctionStore.open(environment: environment), clock: SystemStoreClock()),
        issuer: try EnvironmentReader(environment: environment).required("ISSUER"))
}
