import GatehouseJSON

/// One way the user proved who they are in a session, and when: an entry of the session's
/// `amr` (RFC 8176's authentication methods references, in Supabase's shape
/// `{"method": "password", "timestamp": 1700000000}`).
public struct AuthenticationMethod: Sendable, Equatable {
    /// How: the sign-in method (`email`, `phone`, `password`, `apple`, an OIDC provider's name).
    public let method: String
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
