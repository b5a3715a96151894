import JOSE

/// The JWT authorizer's configuration, read from the environment once, at initialisation:
/// a missing or malformed value fails the cold start instead of every request.
///
/// | variable | meaning | default |
/// | --- | --- | --- |
/// | `JWKS_URL` | where the public keys are (http or https) | required |
/// | `JWT_ISSUER` | the exact `iss` | required |
/// | `JWT_AUDIENCE` | accepted `aud` values, comma-separated | required |
/// | `JWT_ALGORITHMS` | allowed algorithms, comma-separated | `RS256` |
/// | `JWT_CLOCK_SKEW_SECONDS` | allowed clock difference | 60 |
/// | `JWT_REQUIRED_SCOPES` | scopes every token must have, space- or comma-separated | none |
/// | `JWKS_PENALTY_SECONDS` | least time between refetches for unknown kids | 10 |
/// | `JWKS_MAX_AGE_SECONDS` | age after which keys refresh in the background | 600 |
/// | `JWKS_FETCH_TIMEOUT_SECONDS` | longest wait for one JWKS fetch, at least 1 | 3 |
public struct AuthorizerSettings: Sendable, Equatable {
    public var jwksURL: String
    public var issuer: String
    public var audiences: Set<String>
    public var algorithms: Set<JWSAlgorithm>
    public var clockSkew: Double
    public var requiredScopes: Set<String>
    public var penaltyWindow: Double
    public var maximumKeyAge: Double
    public var fetchTimeout: Double

    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        jwksURL = try reader.required("JWKS_URL")
        guard jwksURL.hasPrefix("https://") || jwksURL.hasPrefix("http://"), jwksURL.count > "https://".count else {
            throw .invalid("JWKS_URL", "\"\(jwksURL)\" is not an http or https URL")
        }
        issuer = try reader.required("JWT_ISSUER")
        audiences = Set(reader.list(try reader.required("JWT_AUDIENCE")))
        guard !audiences.isEmpty else { throw .missing("JWT_AUDIENCE") }
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
        penaltyWindow = try reader.seconds("JWKS_PENALTY_SECONDS", default: 10)
        maximumKeyAge = try reader.seconds("JWKS_MAX_AGE_SECONDS", default: 600)
        fetchTimeout = try reader.seconds("JWKS_FETCH_TIMEOUT_SECONDS", default: 3)
        guard fetchTimeout >= 1 else { throw .invalid("JWKS_FETCH_TIMEOUT_SECONDS", "must be at least 1 second") }
    }

    /// The verifier these settings describe.
    public var verifier: JWTVerifier {
        JWTVerifier(issuer: issuer, audiences: audiences, algorithms: algorithms, clockSkew: clockSkew)
    }
}
