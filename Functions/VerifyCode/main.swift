import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Settings and the store are checked here: a bad one fails the cold start. No signing key.
    return VerifyCodeHandler(
        verification: try CodeVerification(
            environment: environment, store: FunctionStore.open(environment: environment)))
}
