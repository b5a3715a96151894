/// Why a passkey request was refused. The Supabase edge answers each with supabase/auth's code
/// (`SupabasePasskeys`); these are Gatehouse's own words for the same refusals.
public enum PasskeyError: Error, Sendable, Equatable {
    /// No such challenge (unknown, answered already, another user's, session's or app's).
    case challengeNotFound
    /// The challenge is older than its 5 minutes.
    case challengeExpired
    /// The credential does not pass a check (`reason` names which, for the log; the client is
    /// told only that it failed).
    case verificationFailed(reason: String)
    /// The credential id is registered already (to this user or another).
    case credentialExists
    /// The user has as many passkeys as allowed (`Passkeys.maximumPerUser`).
    case tooManyPasskeys
    /// No passkey of that id is the user's.
    case passkeyNotFound
    /// A friendly name that is empty or longer than `Passkeys.maximumNameLength`.
    case invalidName
    /// An anonymous user registers none: whoever later confirms an address on the account would
    /// find a way in they did not make (as an anonymous user sets no password).
    case anonymousUser
}

extension PasskeyError: ClientError {
    public var status: Int {
        switch self {
        case .passkeyNotFound: 404
        case .challengeNotFound, .challengeExpired, .verificationFailed, .invalidName: 400
        case .credentialExists, .tooManyPasskeys, .anonymousUser: 422
        }
    }

    public var code: String {
        switch self {
        case .challengeNotFound: "passkey_challenge_not_found"
        case .challengeExpired: "passkey_challenge_expired"
        case .verificationFailed: "passkey_refused"
        case .credentialExists: "passkey_already_registered"
        case .tooManyPasskeys: "passkey_limit_reached"
        case .passkeyNotFound: "passkey_not_found"
        case .invalidName: "invalid_passkey_name"
        case .anonymousUser: "passkey_needs_address"
        }
    }

    public var description: String {
        switch self {
        case .challengeNotFound: "Challenge not found or already used"
        case .challengeExpired: "Challenge has expired"
        case .verificationFailed: "Credential verification failed"
        case .credentialExists: "This credential is already registered"
        case .tooManyPasskeys: "Maximum number of passkeys reached"
        case .passkeyNotFound: "Passkey not found"
        case .invalidName: "friendly_name must be 1 to \(Passkeys.maximumNameLength) characters"
        case .anonymousUser: "An anonymous user cannot register a passkey: add an address first"
        }
    }
}
