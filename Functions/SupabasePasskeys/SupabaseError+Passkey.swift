import AuthKit
import SupabaseEdge

extension SupabaseError {
    /// A passkey refusal in supabase/auth's status, code and words (`internal/api/passkey_*.go`).
    init(passkey error: PasskeyError) {
        switch error {
        case .challengeNotFound:
            self.init(status: 400, code: "webauthn_challenge_not_found", message: error.description)
        case .challengeExpired:
            self.init(status: 400, code: "webauthn_challenge_expired", message: error.description)
        case .verificationFailed:
            self.init(status: 400, code: "webauthn_verification_failed", message: error.description)
        case .credentialExists:
            self.init(status: 422, code: "webauthn_credential_exists", message: error.description)
        case .tooManyPasskeys:
            self.init(status: 422, code: "too_many_passkeys", message: error.description)
        case .passkeyNotFound:
            self.init(status: 404, code: "validation_failed", message: error.description)
        case .invalidName:
            self.init(status: 400, code: "validation_failed", message: error.description)
        case .anonymousUser:
            self.init(status: 422, code: "validation_failed", message: error.description)
        }
    }
}
