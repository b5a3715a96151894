import GatehouseJSON

/// One way the user proved who they are in a session, and when: an entry of the session's
/// `amr` (RFC 8176's authentication methods references, in Supabase's shape
/// `{"method": "password", "timestamp": 1700000000}`).
public struct AuthenticationMethod: Sendable, Equatable {
    /// How, in Supabase's words, which its clients and row-level policies read: `password`, `otp`
    /// (an emailed link or code, a texted code), `oauth` (a provider: Apple, the OIDC provider, by
    /// redirect or ID token), `anonymous`, `passkey`, and MFA's factors.
    public let method: String

    /// A password sign-in's method.
    public static let password = "password"

    /// The `amr` method of a session started with `provider` (the session's `method`, which
    /// names the way in: `email`, `phone`, `apple`, `google`, `anonymous`): Supabase's word for
    /// it. A password sign-in, also `email`, says so itself (`password`).
    public static func named(signIn provider: String) -> String {
        switch provider {
        case "email", "phone": "otp"
        case "anonymous": "anonymous"
        case "passkey": "passkey"
        case "password": password
        default: "oauth"
        }
    }
    /// Seconds since 1970.
    public let timestamp: Double

    public init(method: String, timestamp: Double) {
        self.method = method
        self.timestamp = timestamp
    }

    /// The entry of a stored `amr` list; nil from anything else.
    init?(_ value: JSONValue) {
        guard case .string(let method)? = value["method"], case .number(let timestamp)? = value["timestamp"] else {
            return nil
        }
        self.init(method: method, timestamp: timestamp)
    }

    /// As stored and as an access token's `amr` claim carries it.
    var json: JSONValue { ["method": .string(method), "timestamp": .number(timestamp)] }
}
