import AuthKit
import GatehouseJSON

extension SupabaseError {
    /// A password-account refusal in supabase/auth's status, code and words (its `apierrors`).
    public init(account error: AccountError) {
        switch error {
        case .weakPassword(let reasons, let minimum):
            self.init(status: 422, code: "weak_password", message: Self.weakPasswordMessage(reasons, minimum: minimum))
            extra["weak_password"] = ["reasons": .array(reasons.map { .string($0.rawValue) })]
        case .invalidCredentials:
            self.init(status: 400, code: "invalid_credentials", message: "Invalid login credentials")
        case .emailNotConfirmed: self.init(status: 400, code: "email_not_confirmed", message: "Email not confirmed")
        case .phoneNotConfirmed: self.init(status: 400, code: "phone_not_confirmed", message: "Phone not confirmed")
        case .linkExpired:
            self.init(status: 403, code: "otp_expired", message: Self.linkExpiredMessage)
        case .emailExists:
            self.init(
                status: 422, code: "email_exists", message: "A user with this email address has already been registered"
            )
        case .phoneExists:
            self.init(status: 422, code: "phone_exists", message: "Phone number already registered by another user")
        case .samePassword:
            self.init(
                status: 422, code: "same_password", message: "New password should be different from the old password.")
        case .redirectNotAllowed: self = .validation("redirect_to is not an address of this app")
        case .missingAccessToken:
            self.init(status: 401, code: "no_authorization", message: "This endpoint requires a valid Bearer token")
        case .badAccessToken:
            self.init(
                status: 403, code: "bad_jwt",
                message: "invalid JWT: unable to parse or verify signature, token is expired or not for this app")
        case .sessionEnded:
            self.init(
                status: 403, code: "session_not_found", message: "Session from session_id claim in JWT does not exist")
        case .userNotFound:
            self.init(status: 403, code: "user_not_found", message: "User from sub claim in JWT does not exist")
        case .reauthenticationNeeded:
            self.init(
                status: 400, code: "reauthentication_needed",
                message: "This change requires a recent sign-in or reauthentication")
        case .reauthenticationNotValid:
            self.init(
                status: 400, code: "reauthentication_not_valid", message: "Verification code not found or expired")
        case .secondFactorNeeded:
            self.init(
                status: 401, code: FactorError.insufficientAAL(enrolling: false).code,
                message: "AAL2 session is required to update email or password when MFA is enabled.")
        case .passwordNeedsAddress:
            self.init(
                status: 422, code: "validation_failed",
                message: "An anonymous user can set a password once its email address is confirmed")
        case .identityTaken:
            self.init(
                status: 422, code: "identity_already_exists", message: "Identity is already linked to another user")
        case .identityNotFound: self.init(status: 422, code: "identity_not_found", message: "Identity doesn't exist")
        case .lastIdentity:
            self.init(
                status: 422, code: "single_identity_not_deletable",
                message: "User must have at least 1 identity after unlinking")
        case .identityNotDetachable:
            self = .featureDisabled("Unlinking an email or phone identity is not supported yet")
        }
    }

    /// What supabase/auth says of a used or expired emailed link (also in a link's redirect).
    public static let linkExpiredMessage = "Email link is invalid or has expired"

    private static func weakPasswordMessage(_ reasons: [PasswordPolicy.Weakness], minimum: Int) -> String {
        if reasons.contains(.length) {
            return "Password should be at least \(minimum) characters (and at most 256 bytes)."
        }
        if reasons.contains(.characters) { return "Password should contain the required kinds of characters." }
        return "Password is known to be weak and easy to guess, please choose a different one."
    }
}
