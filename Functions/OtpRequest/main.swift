import AWSDelivery
import AWSSecrets
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Deployed without a custom domain, the issuer is the API's URL, from its parameter
    // (ISSUER_PARAMETER): read once here. It only sends codes, so it holds no signing key.
    let environment = try await DeployedEnvironment.resolve(environment)
    // Settings, the OTP secret and the store are checked here: a bad one fails the cold start.
    let store = try FunctionStore.open(environment: environment)
    return OtpRequestHandler(
        codes: try PhoneCodes(
            environment: environment, store: store, remote: AWSSenders(environment: environment),
            secret: try OTPSecret(environment: environment)),
        apps: AppRegistry(store: store), defaultApp: DefaultApp(environment: environment))
}
