import AWSSecrets
import AuthKit
import JOSE
import LambdaRuntime

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

await Lambda.runBytes {
    // Deployed, the public keys come from their parameter (PUBLIC_KEYS_PARAMETER, the stack's
    // /gatehouse/STACK/public-keys), which `gatehouse keys publish` writes: this function never
    // reads the private set there.
    let environment = try await PublicKeysParameter.resolve(ProcessInfo.processInfo.environment)
    if let published = environment[PublicKeysParameter.valueVariable] {
        return try JwksHandler(publicKeys: SigningKeySet.publicJWKS(fromJWKSJSON: Array(published.utf8)))
    }
    // Locally (the key file given, which wins over the parameter), the project's key file; only
    // its public members are kept.
    guard let location = SigningKeyLocation.fromEnvironment(environment) else {
        throw SigningKeyStoreError.notConfigured
    }
    return try JwksHandler(publicKeys: SigningKeyStore(location: location).loadPublicJWKS())
}
