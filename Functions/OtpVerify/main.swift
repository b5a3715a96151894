import AWSDelivery
import AuthKit
import FunctionStore
import HTTPEdge
import LambdaRuntime

await Lambda.runHTTP { environment in
    // Settings, the OTP secret, the signing keys and the store are checked here: a bad one fails
    // the cold start.
    return OtpVerifyHandler(
        signIn: try PhoneSignIn(
            environment: environment, store: FunctionStore.open(environment: environment),
            remote: AWSSenders(environment: environment)))
}
