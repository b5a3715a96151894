import AWSDelivery
import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    let remote = AWSSenders(environment: environment)
    var accounts = try PasswordAccounts(environment: environment, store: store, remote: remote)
    let codes = try PhoneCodes.optional(environment: environment, store: store, remote: remote)
    accounts.phoneChanges = codes.map {
        PhoneChanges(codes: $0, users: accounts.sessions.users, audit: accounts.sessions.audit)
    }
    return SupabaseVerifyHandler(
        sessions: accounts.sessions, accounts: accounts,
        magicLinks: try MagicLinks(environment: environment, store: store, remote: remote),
        apiOrigin: BrowserPost.origin(of: try SessionSettings(environment: environment).issuer),
        phones: codes.map {
            PhoneSignIn(
                codes: $0, sessions: accounts.sessions, clock: SystemStoreClock(), defaultApp: DefaultApp(id: nil))
        })
}
