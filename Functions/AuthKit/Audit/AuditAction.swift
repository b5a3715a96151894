/// What an audit event records: a fixed list, so that no text of a request can become an
/// action. The raw value is what the `AuditLog` item stores and what a filter names.
public enum AuditAction: String, Sendable, CaseIterable, Codable {
    /// A session started (its `AuditSignInMethod` says how), or a sign-in refused (its
    /// `AuditFailureReason` says why).
    case signIn = "sign_in"
    /// A new account, signed in at once.
    case signUp = "sign_up"
    /// The try that locked an account's password sign-in.
    case lock
    /// A user ending their own session, or all of them (`/auth/logout`, `/auth/v1/logout`).
    case signOut = "sign_out"
    case passwordChange = "password_change"
    /// A password set through a recovery link or code.
    case recovery
    case emailChange = "email_change"
    case phoneChange = "phone_change"
    case factorAdded = "factor_added"
    case factorRemoved = "factor_removed"
    case passkeyAdded = "passkey_added"
    case passkeyRemoved = "passkey_removed"
    case accountDeleted = "account_deleted"
    // An operator's, with the key that made it (`AuditActor.adminKey`).
    case ban
    case unban
    case adminUserCreated = "admin_user_created"
    case adminUserUpdated = "admin_user_updated"
    case adminUserDeleted = "admin_user_deleted"
    case adminSignOut = "admin_sign_out"
    case adminLinkGenerated = "admin_link_generated"
    case adminFactorRemoved = "admin_factor_removed"
    case adminInvite = "admin_invite"
}
