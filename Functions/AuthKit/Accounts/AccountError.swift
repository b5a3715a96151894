/// Why a password-account request was refused: the domain's reasons, in Gatehouse's own
/// `snake_case` codes and words. An edge that speaks another API's dialect maps these cases to
/// its own (SupabaseEdge's `SupabaseError(account:)` answers supabase/auth's codes).
public enum AccountError: Error, Sendable, Equatable {
    /// The new password breaks the policy, for these reasons.
    case weakPassword([PasswordPolicy.Weakness], minimumLength: Int)
    /// Wrong address or password, or a locked account: one answer for all.
    case invalidCredentials
    /// The password is right, the address not yet confirmed.
    case emailNotConfirmed
    /// The password is right, the number not yet confirmed by its texted code.
    case phoneNotConfirmed
    /// The link or emailed code is unknown, used or expired.
    case linkExpired
    /// Another user has the address asked for.
    case emailExists
    /// Another user has the number asked for.
    case phoneExists
    /// The new password is the current one.
    case samePassword
    /// `redirect_to` is not under the app's registered base URL or mobile scheme.
    case redirectNotAllowed
    /// No `Authorization: Bearer` access token.
    case missingAccessToken
    /// The access token is not one of ours, not for this app, or expired.
    case badAccessToken
    /// The access token's session has ended.
    case sessionEnded
    /// The token's user is gone.
    case userNotFound
    /// A new password or address needs a recent sign-in, or the nonce `/reauthenticate` mailed.
    case reauthenticationNeeded
    /// The nonce is wrong, used, expired, or its user is locked out of tries.
    case reauthenticationNotValid
    /// The user has a verified second factor, and this change needs a session that verified it
    /// (`aal2`): a password, address or number change, the account's deletion.
    case secondFactorNeeded
    /// An anonymous user's password: it sets one once its address is confirmed.
    case passwordNeedsAddress
    /// The identity to link belongs to another user.
    case identityTaken
    /// The user has no identity of that id.
    case identityNotFound
    /// Unlinking it would leave the user no identity to sign in with.
    case lastIdentity
    /// The address or number identity, which unlinking does not remove (not built).
    case identityNotDetachable
}

extension AccountError: ClientError {
    public var status: Int {
        switch self {
        case .invalidCredentials, .emailNotConfirmed, .phoneNotConfirmed, .linkExpired, .badAccessToken,
            .missingAccessToken,
            .sessionEnded, .userNotFound:
            401
        case .redirectNotAllowed, .weakPassword, .samePassword, .passwordNeedsAddress, .lastIdentity,
            .identityNotDetachable:
            400
        case .identityNotFound: 404
        case .reauthenticationNeeded, .reauthenticationNotValid, .secondFactorNeeded: 403
        case .emailExists, .phoneExists, .identityTaken: 409
        }
    }

    public var code: String {
        switch self {
        case .weakPassword: "weak_password"
        case .invalidCredentials: "invalid_credentials"
        case .emailNotConfirmed: "email_not_confirmed"
        case .phoneNotConfirmed: "number_not_confirmed"
        case .linkExpired: "invalid_link"
        case .emailExists: "email_taken"
        case .phoneExists: "number_taken"
        case .samePassword: "same_password"
        case .redirectNotAllowed: "invalid_redirect"
        case .missingAccessToken, .badAccessToken, .sessionEnded, .userNotFound: "unauthorized"
        case .reauthenticationNeeded: "reauthentication_required"
        case .reauthenticationNotValid: "invalid_code"
        case .secondFactorNeeded: "aal2_required"
        case .passwordNeedsAddress: "address_required"
        case .identityTaken: "identity_taken"
        case .identityNotFound: "no_such_identity"
        case .lastIdentity: "last_identity"
        case .identityNotDetachable: "identity_not_detachable"
        }
    }

    public var description: String {
        switch self {
        case .weakPassword(let reasons, let minimum):
            "The password is too weak (\(reasons.map(\.rawValue).joined(separator: ", ")); at least \(minimum) characters)."
        case .invalidCredentials: "The address or password is wrong."
        case .emailNotConfirmed: "The address is not confirmed yet."
        case .phoneNotConfirmed: "The phone number is not confirmed yet."
        case .linkExpired: "The link or code is invalid, already used or expired."
        case .emailExists: "The address belongs to another account."
        case .phoneExists: "The phone number belongs to another account."
        case .samePassword: "The new password is the current one."
        case .redirectNotAllowed: "redirect_to is not an address of this app."
        case .missingAccessToken, .badAccessToken, .sessionEnded, .userNotFound: "A valid access token is required."
        case .reauthenticationNeeded: "This change needs a recent sign-in."
        case .reauthenticationNotValid: "The code is invalid, already used or expired."
        case .secondFactorNeeded: "This change needs a session that verified the second factor (aal2)."
        case .passwordNeedsAddress: "An anonymous user sets a password once its email address is confirmed."
        case .identityTaken: "The identity belongs to another user."
        case .identityNotFound: "The user has no identity of that id."
        case .lastIdentity: "The user's only identity cannot be unlinked."
        case .identityNotDetachable: "An email or phone identity cannot be unlinked yet."
        }
    }
}
