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
    // Only the public keys: this function never holds private key material.
    return try JwksHandler(publicKeys: SigningKeyStore(location: location).loadPublicJWKS())
}
