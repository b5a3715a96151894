import AuthKit
import LambdaRuntime

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

await Lambda.runBytes {
    guard let location = SigningKeyLocation.fromEnvironment(ProcessInfo.processInfo.environment) else {
        throw SigningKeyStoreError.notConfigured
    }
    return try JwksHandler(keys: SigningKeyStore(location: location).load())
}
