import AWSDelivery
import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime
import PasskeyKit

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    let remote = AWSSenders(environment: environment)
    var accounts = try PasswordAccounts(
        environment: environment, store: store, remote: remote, later: Deferred { try await AfterResponse.later($0) })
    let phoneCodes = try PhoneCodes.optional(environment: environment, store: store, remote: remote)
    accounts.phoneChanges = phoneCodes.map {
        PhoneChanges(codes: $0, users: accounts.sessions.users, audit: accounts.sessions.audit)
    }
    let factors = try Factors(environment: environment, store: store, sessions: accounts.sessions)
    var handler = SupabaseUserHandler(
        sessions: accounts.sessions, reauthentication: accounts.reauthentication, accounts: accounts,
        issuer: try SessionSettings(environment: environment).issuer, factors: factors,
        phoneFactors: try PhoneFactors.isEnabled(in: environment)
            ? phoneCodes.map { PhoneFactors(factors: factors, codes: $0) } : nil)
    if try WebAuthnFactors.isEnabled(in: environment) {
        handler.webAuthnFactors = WebAuthnFactors(
            factors: factors, settings: try PasskeySettings(environment: environment))
    }
    return handler
}
