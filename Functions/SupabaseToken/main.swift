import AWSCognito
import AWSDelivery
import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import JOSE
import JOSEHTTP
import LambdaRuntime
import Logging
import OutboundHTTP

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`).
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings, keys and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    var accounts = try PasswordAccounts(
        environment: environment, store: store, remote: AWSSenders(environment: environment))
    // Users moved from Cognito at their first password sign-in, when COGNITO_MIGRATION_POOL is set.
    accounts.migration = try CognitoPasswordMigration.configured(environment) { failure in
        Logger(label: "supabase-token").warning("Cognito migration", metadata: ["failure": .string(failure)])
    }
    return SupabaseTokenHandler(
        sessions: accounts.sessions, accounts: accounts,
        apple: try appleSignIn(environment, sessions: accounts.sessions),
        oidc: try oidcSignIn(environment, sessions: accounts.sessions),
        issuer: try SessionSettings(environment: environment).issuer)
}

/// Apple's ID tokens checked as `VerifyApple` checks them, when `APPLE_CLIENT_IDS` is set; its
/// keys load in the background (a failed load refuses tokens until a later fetch succeeds).
func appleSignIn(_ environment: [String: String], sessions: SessionService) throws -> AppleSignIn? {
    guard environment["APPLE_CLIENT_IDS"].map({ !$0.isEmpty }) == true else { return nil }
    let apple = try AppleSettings(environment: environment)
    let keys = JWKSCache(url: apple.jwksURL, fetcher: HTTPJWKSFetcher(timeout: .seconds(apple.fetchTimeout)))
    keys.hydrateInBackground { error in
        Logger(label: "supabase-token").warning(
            "Apple's keys not loaded at start", metadata: ["error": .string(LogSafe.description(of: error))])
    }
    return AppleSignIn(
        identities: AppleIdentityVerifier(settings: apple, keys: keys, clock: SystemStoreClock()), sessions: sessions)
}

/// The OIDC provider's ID tokens checked as `OAuthCallback` checks them, when `OIDC_ISSUER` is
/// set (`OAuthSettings`: its issuer, JWKS and client id); its keys load in the background.
func oidcSignIn(_ environment: [String: String], sessions: SessionService) throws -> OIDCSignIn? {
    guard environment["OIDC_ISSUER"].map({ !$0.isEmpty }) == true else { return nil }
    let settings = try OAuthSettings(environment: environment)
    let keys = JWKSCache(url: settings.jwksURL, fetcher: HTTPJWKSFetcher(timeout: .seconds(settings.fetchTimeout)))
    keys.hydrateInBackground { error in
        Logger(label: "supabase-token").warning(
            "The OIDC provider's keys not loaded at start", metadata: ["error": .string(LogSafe.description(of: error))]
        )
    }
    let idTokens = ProviderTokenVerifier(
        issuer: settings.issuer, audiences: [settings.clientID], keys: keys, clock: SystemStoreClock())
    return OIDCSignIn(idTokens: idTokens, sessions: sessions)
}
