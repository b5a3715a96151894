import AuthKit
import HTTPEdge
import LambdaRuntime
import Store

await Lambda.runHTTP { environment in
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    return RefreshHandler(
        sessions: try SessionService(environment: environment, store: SQLiteStore(environment: environment)))
}
