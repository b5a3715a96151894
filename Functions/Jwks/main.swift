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
    // /gatehouse/STACK/public-keys), which `gatehouse keys publish` writes; locally, the key
    // file's public members (it wins). This function never reads the private set.
    let environment = try await PublicKeysParameter.resolve(ProcessInfo.processInfo.environment)
    return try JwksHandler(publicKeys: PublicSigningKeys.load(environment: environment))
}
