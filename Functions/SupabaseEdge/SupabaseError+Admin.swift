import AuthKit

extension SupabaseError {
    /// A server key's refusal in Supabase's codes: 401 `invalid_api_key` (unknown, revoked, a
    /// publishable key, from a browser: Supabase's words for its secret keys there), 429
    /// `over_request_rate_limit`.
    public init(serverKey error: ServerKeyError) {
        switch error {
        case .fromBrowser:
            self.init(status: 401, code: "invalid_api_key", message: "Forbidden use of secret API key in browser")
        case .publishableKey:
            self.init(status: 401, code: "invalid_api_key", message: "A publishable key is not a secret API key")
        case .invalid, .notFound:
            self = .invalidAPIKey
        case .rateLimited(let seconds):
            self.init(
                status: 429, code: "over_request_rate_limit", message: "Request rate limit reached",
                retryAfter: seconds)
        }
    }

    /// An admin operation's refusal in supabase/auth's codes (its `admin.go`).
    public init(admin error: UserAdminError) {
        switch error {
        case .userNotFound: self.init(status: 404, code: "user_not_found", message: "User not found")
        case .factorNotFound: self = SupabaseError(factor: .factorNotFound) ?? .validation("Factor not found")
        case .passkeyNotFound: self.init(status: 404, code: "validation_failed", message: "Passkey not found")
        case .emailExists:
            self.init(
                status: 422, code: "email_exists", message: "A user with this email address has already been registered"
            )
        case .phoneExists:
            self.init(status: 422, code: "phone_exists", message: "Phone number already registered by another user")
        case .invalid(let why): self = .validation(why)
        case .unsupported: self = .featureDisabled(error.description)
        }
    }
}
