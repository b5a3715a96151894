import GatehouseJSON

/// An error as Supabase Auth answers it: the HTTP status, the `error_code`, the message, and
/// what some codes carry besides (`weak_password.reasons`, a 429's wait).
public struct SupabaseError: Error, Sendable, Equatable {
    public var status: Int
    public var code: String
    public var message: String
    /// Extra members of the body (`weak_password`).
    public var extra: [String: JSONValue]
    /// For a 429: seconds until a retry may succeed (the `Retry-After` header).
    public var retryAfter: Int?

    public init(
        status: Int, code: String, message: String, extra: [String: JSONValue] = [:], retryAfter: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra
        self.retryAfter = retryAfter
    }

    /// No `apikey` header, or one that names no app (401, as Supabase's gateway answers).
    public static let invalidAPIKey = SupabaseError(status: 401, code: "invalid_api_key", message: "Invalid API key")

    /// A phone request where phone sign-in is off (no OTP secret): 422 `phone_provider_disabled`.
    public static let phoneDisabled = SupabaseError(
        status: 422, code: "phone_provider_disabled", message: "Phone logins are disabled")

    /// An ID token of a provider this deployment does not configure: 400 `provider_disabled`.
    public static let providerDisabled = SupabaseError(
        status: 400, code: "provider_disabled", message: "Provider is not enabled")

    /// A request for something Gatehouse does not do yet, named in `message`: 422
    /// `feature_disabled`, never a silent 200.
    public static func featureDisabled(_ message: String) -> SupabaseError {
        SupabaseError(status: 422, code: "feature_disabled", message: message)
    }

    /// An anonymous sign-in (`/signup` with neither an address nor a number): Supabase's answer
    /// when anonymous sign-ins are off, 422 `anonymous_provider_disabled`.
    public static let anonymousDisabled = SupabaseError(
        status: 422, code: "anonymous_provider_disabled", message: "Anonymous sign-ins are disabled")

    /// A sign-in with a wallet (`grant_type=web3`): Supabase's answer when it is off, 422
    /// `web3_provider_disabled`.
    public static let web3Disabled = SupabaseError(
        status: 422, code: "web3_provider_disabled", message: "Web3 provider is disabled")

    /// Single sign-on by SAML 2.0 (`POST /sso`, `signInWithSSO`): Supabase's answer when SAML is
    /// off, 404 `saml_provider_disabled` (supabase/auth's `requireSAMLEnabled`). Gatehouse has no
    /// SAML: its answer is this, never the gateway's bare 404.
    public static let samlDisabled = SupabaseError(
        status: 404, code: "saml_provider_disabled", message: "SAML 2.0 is disabled")

    /// Supabase as an OAuth 2.1 server for other apps (`/oauth/authorizations`, `/user/oauth/grants`,
    /// `/admin/oauth/clients`): Supabase's answer when that server is off, 404 `feature_disabled`
    /// (supabase/auth's `requireOAuthServerEnabled`). Gatehouse is no such server.
    public static let oauthServerDisabled = SupabaseError(
        status: 404, code: "feature_disabled", message: "OAuth server is disabled")

    /// A request field is missing or wrong (400 `validation_failed`).
    public static func validation(_ message: String) -> SupabaseError {
        SupabaseError(status: 400, code: "validation_failed", message: message)
    }
}
