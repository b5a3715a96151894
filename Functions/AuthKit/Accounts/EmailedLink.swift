/// A one-time link as it would be mailed (`EmailTokens.record`, `MagicLinks.generate`): what the
/// admin API's `generate_link` answers instead of mailing it.
public struct EmailedLink: Sendable, Equatable {
    /// The URL the email carries (`/auth/v1/verify?token=…&type=…&redirect_to=…`).
    public let link: String
    /// The link's token: what `/auth/v1/verify` takes as `token_hash` with `type`.
    public let token: String
    /// The six-digit code mailed with it; nil without an OTP secret.
    public let code: String?
    /// The link's `type` (`magiclink`, `recovery`, `signup`).
    public let type: String
    /// Where its button returns (the app's, checked).
    public let redirectTo: String
}
