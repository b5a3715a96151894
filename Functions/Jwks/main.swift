import AWSSecrets
import AuthKit
import JOSE
import LambdaRuntime

// Deployed, the public keys come from their parameter (PUBLIC_KEYS_PARAMETER, the stack's
// /gatehouse/STACK/public-keys), which `gatehouse keys publish` writes, read while the runtime
// waits for the first event; locally, the key file's public members (it wins). This function
// never reads the private set, and needs no issuer.
await Lambda.runBytes(DeployedEnvironment.starting(publicKeys: true, issuer: false)) { environment in
    try JwksHandler(publicKeys: PublicSigningKeys.load(environment: environment))
}
