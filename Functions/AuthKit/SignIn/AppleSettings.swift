/// Where Sign in with Apple's identity tokens are checked: `APPLE_JWKS_URL` (Apple's keys by
/// default), `APPLE_ISSUER` (`https://appleid.apple.com` by default) and `APPLE_CLIENT_IDS`
/// (the app's bundle ids and services ids, comma-separated; required: a token for none of them
/// is refused), and `JWKS_FETCH_TIMEOUT_SECONDS` (the longest one fetch of Apple's keys may take;
/// 3 by default).
public struct AppleSettings: Sendable, Equatable {
    public var jwksURL: String
    public var issuer: String
    public var clientIDs: Set<String>
    /// Seconds.
    public var fetchTimeout: Double

    public init(
        jwksURL: String = "https://appleid.apple.com/auth/keys", issuer: String = "https://appleid.apple.com",
        clientIDs: Set<String>, fetchTimeout: Double = 3
    ) {
        self.jwksURL = jwksURL
        self.issuer = issuer
        self.clientIDs = clientIDs
        self.fetchTimeout = fetchTimeout
    }

    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        let clientIDs = Set(reader.list(try reader.required("APPLE_CLIENT_IDS")))
        guard !clientIDs.isEmpty else { throw .invalid("APPLE_CLIENT_IDS", "names no client id") }
        self.init(
            jwksURL: reader.optional("APPLE_JWKS_URL") ?? "https://appleid.apple.com/auth/keys",
            issuer: reader.optional("APPLE_ISSUER") ?? "https://appleid.apple.com", clientIDs: clientIDs,
            fetchTimeout: try reader.jwksFetchTimeout())
    }
}
