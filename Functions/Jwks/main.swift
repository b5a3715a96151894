#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AuthKit
import LambdaRuntime

await Lambda.runBytes {
    guard let location = SigningKeyLocation.fromEnvironment(ProcessInfo.processInfo.environment) else {
        throw SigningKeyStoreError.notConfigured
    }
    return try JwksHandler(keys: SigningKeyStore(location: location).load())
}
