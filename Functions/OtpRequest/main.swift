import AWSDelivery
import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

// Deployed, the secrets it names are read while the runtime waits for the first event, and
// without a custom domain the issuer is that event's API's URL (`DeployedEnvironment.starting`). It only sends codes, so it holds no signing key.
await Lambda.runHTTP(DeployedEnvironment.starting()) { environment in
    // Settings, the OTP secret and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    return OtpRequestHandler(
        codes: try PhoneCodes(
            environment: environment, store: store, remote: AWSSenders(environment: environment),
            secret: try OTPSecret(environment: environment)),
        apps: AppRegistry(store: store), defaultApp: DefaultApp(environment: environment))
}
