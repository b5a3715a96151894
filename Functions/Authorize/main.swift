import AuthKit
import HTTPEdge
import LambdaRuntime
import Store

await Lambda.runHTTP { environment in
    // Settings and the store are checked here: a bad one fails the cold start.
    let store = try SQLiteStore(environment: environment)
    let flow = OAuthFlow(
        settings: try OAuthSettings(environment: environment),
        issuer: try SessionSettings(environment: environment).issuer, store: store)
    return AuthorizeHandler(
        flow: flow, hosted: HostedSignIn(flow: flow, links: try MagicLinks(environment: environment, store: store)))
}
