import AuthKit
import HTTPEdge
import LambdaRuntime
import Store

await Lambda.runHTTP { environment in
    // Only the store: this function holds no signing key.
    UserProfileHandler(
        accounts: Accounts(
            store: try SQLiteStore(environment: environment), clock: SystemStoreClock()))
}
