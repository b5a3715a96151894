import AuthKit
import HTTPEdge
import LambdaRuntime
import Store

await Lambda.runHTTP { environment in
    // Settings, the OTP secret, the signing keys and the store are checked here: a bad one fails
    // the cold start.
    return OtpVerifyHandler(
        signIn: try PhoneSignIn(environment: environment, store: SQLiteStore(environment: environment)))
}
