/// Why a password-account request was refused, with Supabase Auth's status and code: the
/// Supabase-compatible routes answer these as they are.
public enum AccountError: Error, Sendable, Equatable {
    /// The new password breaks the policy (422 `weak_password`, with the reasons).
    case weakPassword([PasswordPolicy.Weakness], minimumLength: Int)
    /// Wrong address or password, or a locked account: one answer for all (400).
    case invalidCredentials
    /// The password is right, the address not yet confirmed (400).
    case emailNotConfirmed
    /// The link or token is unknown, used or expired (403 `otp_expired`).
    case linkExpired
    /// Another user has the address asked for (422 `email_exists`).
    case emailExists
    /// The new password is the current one (422 `same_password`).
    case samePassword
    /// `redirect_to` is not under the app's registered base URL or mobile scheme (400).
    case redirectNotAllowed
    /// No `Authorization: Bearer` access token (401 `no_authorization`).
    case missingAccessToken
    /// The access token is not one of ours, not for this app, or expired (403 `bad_jwt`).
    case badAccessToken
    /// The access token's session has ended (403 `session_not_found`).
    case sessionEnded
    /// The token's user is gone (403 `user_not_found`).
    case userNotFound
    /// A new password or address needs a recent sign-in, or the nonce `/reauthenticate` mailed
    /// (400 `reauthentication_needed`).
    case reauthenticationNeeded
    /// The nonce is wrong, used, expired, or its user is locked out of tries (400
    /// `reauthentication_not_valid`).
    case reauthenticationNotValid
}

extension AccountError: ClientError {
    public var status: Int {
        switch self {
        case .invalidCredentials, .emailNotConfirmed, .redirectNotAllowed, .reauthenticationNeeded,
            .reauthenticationNotValid:
            400
        case .missingAccessToken: 401
        case .linkExpired, .badAccessToken, .sessionEnded, .userNotFound: 403
        case .weakPassword, .emailExists, .samePassword: 422
        }
    }

    public var code: String {
        switch self {
        case .weakPassword: "weak_password"
        case .invalidCredentials: "invalid_credentials"
        case .emailNotConfirmed: "email_not_confirmed"
        case .linkExpired: "otp_expired"
        case .emailExists: "email_exists"
        case .samePassword: "same_password"
        case .redirectNotAllowed: "validation_failed"
        case .missingAccessToken: "no_authorization"
        case .badAccessToken: "bad_jwt"
        case .sessionEnded: "session_not_found"
        case .userNotFound: "user_not_found"
        case .reauthenticationNeeded: "reauthentication_needed"
        case .reauthenticationNotValid: "reauthentication_not_valid"
        }
    }

    public var description: String {
        switch self {
        case .weakPassword(let reasons, let minimum):
            reasons.contains(.length)
                ? "Password should be at least \(minimum) characters (and at most 256 bytes)."
                : reasons.contains(.characters)
                    ? "Password should contain the required kinds of characters."
                    : "Password is known to be weak and easy to guess, please choose a different one."
        case .invalidCredentials: "Invalid login credentials"
        case .emailNotConfirmed: "Email not confirmed"
        case .linkExpired: "Email link is invalid or has expired"
        case .emailExists: "A user with this email address has already been registered"
        case .samePassword: "New password should be different from the old password."
        case .redirectNotAllowed: "redirect_to is not an address of this app"
        case .missingAccessToken: "This endpoint requires a valid Bearer token"
        case .badAccessToken: "invalid JWT: unable to parse or verify signature, token is expired or not for this app"
        case .sessionEnded: "Session from session_id claim in JWT does not exist"
        case .userNotFound: "User from sub claim in JWT does not exist"
        case .reauthenticationNeeded: "This change requires a recent sign-in or reauthentication"
        case .reauthenticationNotValid: "Verification code not found or expired"
        }
    }
}
