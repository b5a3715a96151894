import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Deployed without a custom domain, the issuer is the API's URL, from its parameter
    // (ISSUER_PARAMETER); the public keys come from theirs (PUBLIC_KEYS_PARAMETER), which
    // `gatehouse keys publish` writes: read once here. It checks tokens and signs none, so it
    // never holds the private keys.
    let environment = try await PublicKeysParameter.resolve(DeployedEnvironment.resolve(environment))
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    return SupabaseLogoutHandler(
        apps: AppRegistry(store: store),
        tokens: AccessTokenVerifier(
            publicKeys: try PublicSigningKeys.load(environment: environment),
            issuer: try SessionSettings(environment: environment).issuer, clock: SystemStoreClock()),
        store: store)
}
