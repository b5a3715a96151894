import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    return RefreshHandler(
        sessions: try SessionService(environment: environment, store: FunctionStore.open(environment: environment)))
}
