import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // The store is checked here: a bad one fails the cold start. It reads only the apps.
    SupabaseSettingsHandler(
        apps: AppRegistry(store: try FunctionStore.open(environment: environment)),
        apple: environment["APPLE_CLIENT_IDS"].map { !$0.isEmpty } ?? false,
        google: environment["OIDC_ISSUER"].map { !$0.isEmpty } ?? false,
        smsDelivery: environment["SMS_PROVIDER"].flatMap { $0.isEmpty ? nil : $0 },
        anonymous: try AnonymousSignIn.isEnabled(in: environment))
}
