import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Deployed without a custom domain, the issuer is the API's URL, from its parameter
    // (ISSUER_PARAMETER): read once here. No signing key: a logout issues no token.
    let environment = try await DeployedEnvironment.resolve(environment)
    // Settings and the store are checked here: a bad one fails the cold start.
    return LogoutHandler(
        refreshTokens: RefreshTokens(
            store: try FunctionStore.open(environment: environment), clock: SystemStoreClock(),
            settings: try SessionSettings(environment: environment)))
}
