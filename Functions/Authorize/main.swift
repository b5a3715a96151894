import AuthKit
import HTTPEdge
import LambdaRuntime
import Store

await Lambda.runHTTP { environment in
    // Settings and the store are checked here: a bad one fails the cold start.
    AuthorizeHandler(
        flow: OAuthFlow(
            settings: try OAuthSettings(environment: environment),
            issuer: try SessionSettings(environment: environment).issuer,
            store: try SQLiteStore(environment: environment)))
}
