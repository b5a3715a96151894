import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Deployed, the signing keys come from a secret (SIGNING_KEYS_SECRET) and, without a custom
    // domain, the issuer from its parameter (ISSUER_PARAMETER): read once here.
    let environment = try await DeployedEnvironment.resolve(environment)
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    return ExchangeHandler(
        sessions: try SessionService(environment: environment, store: FunctionStore.open(environment: environment)),
        defaultApp: DefaultApp(environment: environment))
}
