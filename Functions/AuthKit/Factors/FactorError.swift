/// Why a factor request was refused; the Supabase edge answers each with supabase/auth's code.
public enum FactorError: Error, Sendable, Equatable {
    /// No such factor of this user (or it expired unverified): `mfa_factor_not_found`, 404.
    case factorNotFound
    /// No such challenge of this factor and session: `mfa_factor_not_found`, 422.
    case challengeNotFound
    /// The challenge is older than its 5 minutes: `mfa_challenge_expired`.
    case challengeExpired
    /// The code is not the factor's now, or was used already: `mfa_verification_failed`.
    case verificationFailed
    /// The recovery code is not one of the user's in force, or was used: `mfa_verification_failed`.
    case recoveryCodeInvalid
    /// A verified factor needs an `aal2` session for this (`insufficient_aal`); `enrolling`
    /// tells the two messages apart.
    case insufficientAAL(enrolling: Bool)
    /// Another factor of the user has this friendly name: `mfa_factor_name_conflict`.
    case nameConflict(String)
    /// The user has as many factors as allowed: `too_many_enrolled_mfa_factors`.
    case tooManyFactors
    /// Phone factors are off (no OTP secret, so no phone codes): `mfa_phone_enroll_not_enabled`.
    case phoneNotEnabled
    /// The user has a verified phone factor of this number: `mfa_verified_factor_exists`.
    case phoneFactorExists
    /// The texted code is not the challenge's, or the challenge had its tries:
    /// `mfa_verification_failed`, in a phone factor's words.
    case phoneCodeRefused
    /// A WebAuthn factor's credential failed a check (`reason` names which, for the log; the
    /// client is told only that it failed): `mfa_verification_failed`.
    case credentialRefused(reason: String)
    /// No OTP secret here, so no key to seal TOTP secrets with: `mfa_totp_enroll_not_enabled`.
    case totpNotEnabled
    /// A stored secret does not open (another key, or changed): a server fault, never detailed.
    case secretUnreadable
}

extension FactorError: ClientError {
    /// supabase/auth's status for each (`secretUnreadable`, no client's doing, is a 500).
    public var status: Int {
        switch self {
        case .factorNotFound: 404
        case .insufficientAAL(let enrolling): enrolling ? 403 : 422
        case .secretUnreadable: 500
        default: 422
        }
    }

    /// supabase/auth's error code for each.
    public var code: String {
        switch self {
        case .factorNotFound, .challengeNotFound: "mfa_factor_not_found"
        case .challengeExpired: "mfa_challenge_expired"
        case .verificationFailed, .recoveryCodeInvalid, .phoneCodeRefused, .credentialRefused:
            "mfa_verification_failed"
        case .insufficientAAL: "insufficient_aal"
        case .nameConflict: "mfa_factor_name_conflict"
        case .tooManyFactors: "too_many_enrolled_mfa_factors"
        case .phoneNotEnabled: "mfa_phone_enroll_not_enabled"
        case .phoneFactorExists: "mfa_verified_factor_exists"
        case .totpNotEnabled: "mfa_totp_enroll_not_enabled"
        case .secretUnreadable: "factor_secret_unreadable"
        }
    }

    public var description: String {
        switch self {
        case .factorNotFound: "Factor not found"
        case .challengeNotFound: "MFA factor with the provided challenge ID not found"
        case .challengeExpired: "MFA challenge has expired, verify against another challenge or create a new challenge."
        case .verificationFailed: "Invalid TOTP code entered"
        case .recoveryCodeInvalid: "Invalid recovery code entered"
        case .phoneCodeRefused: "Invalid MFA Phone code entered"
        case .credentialRefused: "WebAuthn credential verification failed"
        case .insufficientAAL(let enrolling):
            enrolling ? "AAL2 required to enroll a new factor" : "AAL2 required to unenroll verified factor"
        case .nameConflict(let name):
            "A factor with the friendly name \"\(name.prefix(64))\" for this user already exists"
        case .tooManyFactors: "Maximum number of verified factors reached, unenroll to continue"
        case .phoneNotEnabled: "MFA enroll is disabled for Phone"
        case .phoneFactorExists: "A verified phone factor already exists, unenroll the existing factor to continue"
        case .totpNotEnabled: "MFA enroll is disabled for TOTP"
        case .secretUnreadable: "a stored factor secret does not open"
        }
    }
}
