import AWSDelivery
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
    let store = try FunctionStore.open(environment: environment)
    let remote = AWSSenders(environment: environment)
    let accounts = try PasswordAccounts(environment: environment, store: store, remote: remote)
    return SupabaseVerifyHandler(
        accounts: accounts, magicLinks: try MagicLinks(environment: environment, store: store, remote: remote),
        apiOrigin: BrowserPost.origin(of: try SessionSettings(environment: environment).issuer),
        phones: try PhoneCodes.optional(environment: environment, store: store, remote: remote).map {
            PhoneSignIn(
                codes: $0, sessions: accounts.sessions, clock: SystemStoreClock(), defaultApp: DefaultApp(id: nil))
        })
}
