import GatehouseJSON
import JOSE

/// What an OIDC provider's verified ID token says about its person, read one way for the OAuth
/// callback (the token the provider's token endpoint gives) and for Supabase's
/// `grant_type=id_token` (the token an app got from the provider's own SDK).
public struct OIDCIdentity: Sendable, Equatable {
    /// `sub`: the person at the provider.
    public let subject: String
    /// `email`, when it is an address.
    public let email: EmailAddress?
    /// `email_verified` (`true` or `"true"`): only a verified address links to an account.
    public let emailVerified: Bool
    /// `name`, when the token has one.
    public let name: String?
    /// The `nonce` claim (the hex SHA-256 of the app's nonce, as Supabase's clients send it).
    public let nonce: String?
    /// `exp`, seconds since 1970.
    public let expiresAt: Double

    /// The identity in `verified` (signature, issuer, audience and times already checked):
    /// `missing_subject` without a `sub`, `wrong_token_use` for a token whose `token_use` is
    /// not `id` (a Cognito access token).
    init(_ verified: VerifiedJWT) throws(SignInError) {
        let claims = verified.claims
        if let use = claims["token_use"], use != .string("id") { throw .tokenRefused("wrong_token_use") }
        guard let subject = verified.subject, !subject.isEmpty else { throw .tokenRefused("missing_subject") }
        self.subject = subject
        email = claims["email"]?.stringValue.flatMap(EmailAddress.init)
        emailVerified = ProviderTokenVerifier.flag(claims["email_verified"])
        name = claims["name"]?.stringValue
        nonce = claims["nonce"]?.stringValue
        expiresAt = verified.expiresAt
    }

    /// The email to link or index: the address only when the provider says it is verified.
    public var verifiedEmail: EmailAddress? { emailVerified ? email : nil }
}
