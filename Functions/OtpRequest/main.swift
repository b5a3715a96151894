import AuthKit
import HTTPEdge
import LambdaRuntime
import Store

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

await Lambda.runHTTP {
    // Settings, the OTP secret, the signing keys and the store are checked here: a bad one fails
    // the cold start.
    let environment = ProcessInfo.processInfo.environment
    return OtpRequestHandler(
        signIn: try PhoneSignIn(environment: environment, store: SQLiteStore(environment: environment)))
}
