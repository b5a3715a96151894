import JOSE

/// The JWT authorizer's configuration, read from the environment once, at initialisation:
/// a missing or malformed value fails the cold start instead of every request.
///
/// | variable | meaning | default |
/// | --- | --- | --- |
/// | `STAGE` | `dev` or `prod`; in `prod` the JWKS URL must be https | `dev` |
/// | `JWKS_URL` | where the public keys are (http or https; https only in prod) | `{JWT_ISSUER}/.well-known/jwks.json` |
/// | `JWT_ISSUER` | the exact `iss` | `ISSUER`, Gatehouse's own |
/// | `JWT_AUDIENCE` | accepted `aud` values, comma-separated; unset: any registered app (`TABLE_Apps`) | registered apps |
/// | `TABLE_Apps` | the apps' table, read (with a cache) when `JWT_AUDIENCE` is unset | required then |
/// | `AUTHORIZER_APP_CACHE_SECONDS` | how long an audience's registration (or its absence) is remembered | 30 |
/// | `JWT_ALGORITHMS` | allowed algorithms, comma-separated | `RS256` |
/// | `JWT_CLOCK_SKEW_SECONDS` | allowed clock difference | 60 |
/// | `JWT_REQUIRED_SCOPES` | scopes every token must have, space- or comma-separated | none |
/// | `JWT_REQUIRED_AAL` | `aal2`: only sessions that verified a second factor pass (`aal1`: any); needs the session check; another issuer's tokens never pass it | `aal1` |
/// | `JWKS_PENALTY_SECONDS` | least time between refetches for unknown kids | 10 |
/// | `JWKS_MAX_AGE_SECONDS` | age after which keys refresh in the background | 600 |
/// | `JWKS_FETCH_TIMEOUT_SECONDS` | longest wait for one JWKS fetch, at least 1 | 3 |
/// | `JWKS_MAX_BACKOFF_SECONDS` | longest wait between fetches while they fail | 300 |
/// | `JWKS_MAX_STALE_SECONDS` | past this age, keys whose refresh keeps failing are not used | 86400 |
/// | `AUTHORIZER_CHECK_SESSION` | refuse tokens whose session (`sid`) has ended: `true` or `false` | `true` |
/// | `AUTHORIZER_SESSION_CACHE_SECONDS` | how long a live session is remembered, 0 to 30 | 30 |
/// | `TRUSTED_ISSUERS` | other issuers accepted too, a JSON array (`TrustedIssuer.list`) | none |
public struct AuthorizerSettings: Sendable, Equatable {
    public var jwksURL: String
    public var issuer: String
    /// The fixed `aud` values accepted (`JWT_AUDIENCE`); empty when audiences are registered apps.
    public var audiences: Set<String>
    /// Whether a token's `aud` must be a registered app, read from the `Apps` table
    /// (`RegisteredAudiences`): the case when `JWT_AUDIENCE` is unset.
    public var checksRegisteredApps: Bool
    /// How long a warm instance remembers whether an audience is registered.
    public var appCacheSeconds: Double
    public var algorithms: Set<JWSAlgorithm>
    public var clockSkew: Double
    public var requiredScopes: Set<String>
    /// `aal2` when only sessions that verified a second factor pass; nil for any.
    public var requiredAAL: String?
    public var penaltyWindow: Double
    public var maximumKeyAge: Double
    public var fetchTimeout: Double
    public var maximumBackoff: Double
    public var maximumStaleness: Double
    /// Whether each token's session is looked up in the store (`SessionCheck`).
    public var checksSession: Bool
    /// How long a warm instance remembers a live session.
    public var sessionCacheSeconds: Double
    /// Other issuers whose tokens are accepted (Cognito user pools, OIDC providers).
    public var trustedIssuers: [TrustedIssuer]

    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        let stage = try SessionSettings.Stage(reader)
        // Gatehouse's own issuer (`ISSUER`, every function's) unless another is named, and its keys
        // where Gatehouse serves them.
        issuer = try reader.required("JWT_ISSUER", or: "ISSUER")
        jwksURL = reader.optional("JWKS_URL") ?? "\(issuer)/.well-known/jwks.json"
        guard jwksURL.hasPrefix("https://") || jwksURL.hasPrefix("http://"), jwksURL.count > "https://".count else {
            throw .invalid("JWKS_URL", "\"\(jwksURL)\" is not an http or https URL")
        }
        guard stage == .dev || jwksURL.hasPrefix("https://") else {
            throw .invalid("JWKS_URL", "\"\(jwksURL)\" is not https, which STAGE prod requires")
        }
        (audiences, checksRegisteredApps) = try Self.audiences(reader)
        appCacheSeconds = try reader.seconds("AUTHORIZER_APP_CACHE_SECONDS", default: 30)
        var algorithms = Set<JWSAlgorithm>()
        for name in reader.list(environment["JWT_ALGORITHMS"] ?? "RS256") {
            guard let algorithm = JWSAlgorithm(rawValue: name) else {
                let supported = JWSAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalid("JWT_ALGORITHMS", "\(name) is not one of \(supported)")
            }
            algorithms.insert(algorithm)
        }
        guard !algorithms.isEmpty else { throw .invalid("JWT_ALGORITHMS", "no algorithm is listed") }
        self.algorithms = algorithms
        clockSkew = try reader.seconds("JWT_CLOCK_SKEW_SECONDS", default: 60)
        requiredScopes = Set(reader.list(environment["JWT_REQUIRED_SCOPES"] ?? ""))
        switch reader.optional("JWT_REQUIRED_AAL")?.lowercased() ?? "aal1" {
        case "aal1": requiredAAL = nil
        case "aal2": requiredAAL = "aal2"
        case let other: throw .invalid("JWT_REQUIRED_AAL", "\"\(other.prefix(16))\" is not aal1 or aal2")
        }
        penaltyWindow = try reader.seconds("JWKS_PENALTY_SECONDS", default: 10)
        maximumKeyAge = try reader.seconds("JWKS_MAX_AGE_SECONDS", default: 600)
        fetchTimeout = try reader.jwksFetchTimeout()
        maximumBackoff = try reader.seconds("JWKS_MAX_BACKOFF_SECONDS", default: 300)
        maximumStaleness = try reader.seconds("JWKS_MAX_STALE_SECONDS", default: 86400)
        switch reader.optional("AUTHORIZER_CHECK_SESSION")?.lowercased() ?? "true" {
        case "true", "on", "1": checksSession = true
        case "false", "off", "0": checksSession = false
        case let other: throw .invalid("AUTHORIZER_CHECK_SESSION", "\"\(other)\" is not true or false")
        }
        if let text = reader.optional("TRUSTED_ISSUERS") {
            trustedIssuers = try TrustedIssuer.list(text, requireHTTPS: stage == .prod)
        } else {
            trustedIssuers = []
        }
        let ownIssuer = issuer
        guard !trustedIssuers.contains(where: { $0.issuer == ownIssuer }) else {
            throw .invalid("TRUSTED_ISSUERS", "names Gatehouse's own issuer (JWT_ISSUER)")
        }
        guard requiredAAL == nil || checksSession else {
            throw .invalid(
                "JWT_REQUIRED_AAL", "aal2 needs AUTHORIZER_CHECK_SESSION=true: a session's level is its row's")
        }
        sessionCacheSeconds = try reader.seconds("AUTHORIZER_SESSION_CACHE_SECONDS", default: 30)
        guard sessionCacheSeconds <= SessionCheck.maximumCacheSeconds else {
            throw .invalid("AUTHORIZER_SESSION_CACHE_SECONDS", "must be at most 30")
        }
    }

    /// `JWT_AUDIENCE`'s fixed list when it is set; otherwise the registered apps, which needs
    /// the `Apps` table (`TABLE_Apps`).
    private static func audiences(_ reader: EnvironmentReader) throws(SettingsError) -> (Set<String>, Bool) {
        if let text = reader.optional("JWT_AUDIENCE") {
            let audiences = Set(reader.list(text))
            guard !audiences.isEmpty else { throw .missing("JWT_AUDIENCE") }
            return (audiences, false)
        }
        guard reader.optional("TABLE_\(AppRegistry.table)") != nil else { throw .missing("JWT_AUDIENCE") }
        return ([], true)
    }

    /// The JWKS cache's timing rules these settings describe.
    public var cacheSettings: JWKSCache.Settings {
        .init(
            penaltyWindow: penaltyWindow, maximumAge: maximumKeyAge, maximumBackoff: maximumBackoff,
            maximumStaleness: maximumStaleness)
    }

    /// The verifier these settings describe.
    public var verifier: JWTVerifier {
        JWTVerifier(
            issuer: issuer, audiences: audiences, algorithms: algorithms, clockSkew: clockSkew,
            checksAudience: !checksRegisteredApps)
    }
}
