/// How a session started, in the words of the session's `amr` (`AuthenticationMethod`): a
/// fixed list, so a provider's or a request's text never becomes part of an audit item.
public enum AuditSignInMethod: String, Sendable, CaseIterable, Codable {
    case password
    /// An emailed link or code, or a texted code.
    case otp
    /// A provider: Apple, the OIDC provider, by redirect or by ID token.
    case oauth
    case anonymous
    case passkey

    /// The method of a session started with `provider` (a session's `method`) and `proof` (a
    /// password sign-in's `AuthenticationMethod.password`).
    public init(provider: String, proof: String? = nil) {
        self = Self(rawValue: proof ?? AuthenticationMethod.named(signIn: provider)) ?? .oauth
    }
}
