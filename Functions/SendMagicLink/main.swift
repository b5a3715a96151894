import AuthKit
import HTTPEdge
import LambdaRuntime
import Store

await Lambda.runHTTP { environment in
    // Settings and the store are checked here: a bad one fails the cold start.
    return SendMagicLinkHandler(
        links: try MagicLinks(environment: environment, store: SQLiteStore(environment: environment)))
}
