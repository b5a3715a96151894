import Crypto
import GatehouseJSON
import JOSE
import StoreCore

/// Checks a Sign in with Apple identity token (the native iOS flow): RS256 against Apple's keys
/// through the JWKS cache, the issuer, an audience among the configured client ids, `exp` and
/// `iat`, the token's `sub` equal to the `user` the app sent (when it sent one), and the token's `nonce` claim
/// equal to hex(SHA-256(nonce)) of the `nonce` the app sent. Without a nonce a token is refused
/// (`missing_nonce`) unless the app opted out (`App.appleNonceOptional`), and even then when the
/// token carries one.
public struct AppleIdentityVerifier: Sendable {
    private let tokens: ProviderTokenVerifier

    public init(settings: AppleSettings, keys: JWKSCache, clock: any StoreClock) {
        tokens = ProviderTokenVerifier(issuer: settings.issuer, audiences: settings.clientIDs, keys: keys, clock: clock)
    }

    /// The identity in `token`, or `SignInError.tokenRefused` with the reason. `user` (Apple's
    /// user id, as the app got it) must be the token's subject when given (Supabase's
    /// `grant_type=id_token` sends none). `nonceOptional` (the app's opt-out) lets a token
    /// without a `nonce` claim through when `nonce` is nil.
    public func verify(
        _ token: String, user: String?, nonce: String?, nonceOptional: Bool = false
    ) async throws(SignInError) -> AppleIdentity {
        let verified = try await tokens.verify(token)
        guard verified.claims["iat"]?.numberValue != nil else { throw .tokenRefused("missing_iat") }
        guard let subject = verified.subject, !subject.isEmpty, user.map({ $0 == subject }) ?? true else {
            throw .tokenRefused("user_mismatch")
        }
        try ProviderTokenVerifier.check(
            nonce: nonce, claim: verified.claims["nonce"]?.stringValue, optional: nonceOptional)
        return AppleIdentity(
            subject: subject, email: verified.claims["email"]?.stringValue.flatMap(EmailAddress.init),
            emailVerified: ProviderTokenVerifier.flag(verified.claims["email_verified"]),
            isPrivateEmail: ProviderTokenVerifier.flag(verified.claims["is_private_email"]),
            expiresAt: verified.expiresAt)
    }
}
