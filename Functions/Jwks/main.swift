import AWSSecrets
import AuthKit
import LambdaRuntime

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

await Lambda.runBytes {
    // Deployed, the keys come from a secret (SIGNING_KEYS_SECRET); only their public members are kept.
    let environment = try await SigningKeySecret.resolve(ProcessInfo.processInfo.environment)
    guard let location = SigningKeyLocation.fromEnvironment(environment) else {
        throw SigningKeyStoreError.notConfigured
    }
    // Only the public keys: this function never holds private key material.
    return try JwksHandler(publicKeys: SigningKeyStore(location: location).loadPublicJWKS())
}
