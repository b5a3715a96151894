import AWSDelivery
import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime
import StoreCore

// Deployed, the OTP secret (the links' codes) is read while the runtime waits for the first
// event, and without a custom domain the issuer (where links point) is that event's API's URL
// (`DeployedEnvironment.starting`). It signs no token.
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    let clock = SystemStoreClock()
    let remote = AWSSenders(environment: environment)
    let audit = try AuditLog(environment: environment, store: store, clock: clock)
    return SupabaseAdminHandler(
        store: store, clock: clock, hasher: try PasswordHasher(environment: environment),
        policy: try PasswordPolicy(environment: environment),
        links: try EmailTokens(environment: environment, store: store, clock: clock, remote: remote),
        magicLinks: try MagicLinks(environment: environment, store: store, remote: remote, mailsCodes: true),
        passkeys: Passkeys(
            store: store, clock: clock,
            refreshTokens: RefreshTokens(
                store: store, clock: clock, settings: try SessionSettings(environment: environment)),
            audit: audit),
        audit: audit)
}
