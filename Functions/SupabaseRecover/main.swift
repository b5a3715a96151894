import AWSDelivery
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Settings and the store are checked here: a bad one fails the cold start. No signing key:
    // a recovery starts no session.
    return SupabaseRecoverHandler(
        signUps: try PasswordSignUp(
            environment: environment, store: FunctionStore.open(environment: environment),
            remote: AWSSenders(environment: environment)))
}
