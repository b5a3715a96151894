import Crypto
import GatehouseJSON
import JOSE
import StoreCore

/// Checks a Sign in with Apple identity token (the native iOS flow): RS256 against Apple's keys
/// through the JWKS cache, the issuer, an audience among the configured client ids, `exp` and
/// `iat`, the token's `sub` equal to the `user` the app sent, and, when the app sent a `nonce`,
/// the token's `nonce` claim equal to hex(SHA-256(nonce)).
public struct AppleIdentityVerifier: Sendable {
    private let tokens: ProviderTokenVerifier

    public init(settings: AppleSettings, keys: JWKSCache, clock: any StoreClock) {
        tokens = ProviderTokenVerifier(issuer: settings.issuer, audiences: settings.clientIDs, keys: keys, clock: clock)
    }

    /// The identity in `token`, or `SignInError.tokenRefused` with the reason.
    public func verify(_ token: String, user: String, nonce: String?) async throws(SignInError) -> AppleIdentity {
        let verified = try await tokens.verify(token)
        guard verified.claims["iat"]?.numberValue != nil else { throw .tokenRefused("missing_iat") }
        guard let subject = verified.subject, !subject.isEmpty, subject == user else {
            throw .tokenRefused("user_mismatch")
        }
        if let nonce {
            let expected = SHA256Hex.of(Array(nonce.utf8))
            guard verified.claims["nonce"]?.stringValue == expected else { throw .tokenRefused("nonce_mismatch") }
        }
        return AppleIdentity(
            subject: subject, email: verified.claims["email"]?.stringValue.flatMap(EmailAddress.init),
            emailVerified: ProviderTokenVerifier.flag(verified.claims["email_verified"]),
            isPrivateEmail: ProviderTokenVerifier.flag(verified.claims["is_private_email"]))
    }
}
