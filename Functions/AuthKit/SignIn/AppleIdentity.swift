/// Who an Apple identity token says signed in: Apple's subject, and the address when it sent one.
public struct AppleIdentity: Sendable, Equatable {
    public let subject: String
    public let email: EmailAddress?
    /// `email_verified`, which Apple sends as a boolean or as the string "true"/"false".
    public let emailVerified: Bool
    /// `is_private_email`: a relay address of Apple's.
    public let isPrivateEmail: Bool
    /// The token's `exp`, seconds since 1970: how long its use is remembered.
    public let expiresAt: Double

    public init(subject: String, email: EmailAddress?, emailVerified: Bool, isPrivateEmail: Bool, expiresAt: Double) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateEmail = isPrivateEmail
        self.expiresAt = expiresAt
    }
}
