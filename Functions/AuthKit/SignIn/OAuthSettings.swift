/// The OIDC provider sign-in goes through (Cognito's hosted UI, or any OIDC provider):
/// `OIDC_AUTHORIZE_URL`, `OIDC_TOKEN_URL`, `OIDC_JWKS_URL`, `OIDC_ISSUER`, `OIDC_CLIENT_ID`, and
/// `OIDC_CLIENT_SECRET` when the client has one (then sent with HTTP Basic authentication; deployed,
/// only the callback is given it, read from its Secrets Manager secret at the cold start), and
/// `JWKS_FETCH_TIMEOUT_SECONDS` (the longest one fetch of the provider's keys may take; 3 by default).
public struct OAuthSettings: Sendable, Equatable {
    public var authorizeURL: String
    public var tokenURL: String
    public var jwksURL: String
    public var issuer: String
    public var clientID: String
    public var clientSecret: String?
    /// Seconds.
    public var fetchTimeout: Double

    public init(
        authorizeURL: String, tokenURL: String, jwksURL: String, issuer: String, clientID: String,
        clientSecret: String? = nil, fetchTimeout: Double = 3
    ) {
        self.fetchTimeout = fetchTimeout
        self.authorizeURL = authorizeURL
        self.tokenURL = tokenURL
        self.jwksURL = jwksURL
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
    }

    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        self.init(
            authorizeURL: try reader.required("OIDC_AUTHORIZE_URL"), tokenURL: try reader.required("OIDC_TOKEN_URL"),
            jwksURL: try reader.required("OIDC_JWKS_URL"), issuer: try reader.required("OIDC_ISSUER"),
            clientID: try reader.required("OIDC_CLIENT_ID"), clientSecret: reader.optional("OIDC_CLIENT_SECRET"),
            fetchTimeout: try reader.jwksFetchTimeout())
    }
}
