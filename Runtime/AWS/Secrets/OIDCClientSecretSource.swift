import AWSCalls
import AWSSigning
import OutboundHTTP

/// Where a deployed function's OIDC client secret (the one it presents at the provider's token
/// endpoint when it redeems a code) comes from: the Secrets Manager secret the stack names
/// (`OIDC_CLIENT_SECRET_ARN`, the template's `OidcClientSecretArn`), whose string is the client
/// secret, read once at the cold start into the environment the function's settings read, as
/// `OIDC_CLIENT_SECRET` (in memory only: never in the process's own environment, never logged).
/// A secret given directly (`OIDC_CLIENT_SECRET`, as start-api gives its dev provider's) wins,
/// and nothing is read; without either the client has no secret (a public client).
public enum OIDCClientSecretSource {
    /// The variable naming the secret (its ARN).
    public static let secretVariable = "OIDC_CLIENT_SECRET_ARN"
    /// The variable the client secret is put in, which `OAuthSettings` reads.
    public static let valueVariable = "OIDC_CLIENT_SECRET"

    /// True when `environment` names the secret and gives none directly.
    public static func isNamed(in environment: [String: String]) -> Bool {
        !(environment[secretVariable] ?? "").isEmpty && (environment[valueVariable] ?? "").isEmpty
    }

    /// `environment` with `OIDC_CLIENT_SECRET` set from the secret it names.
    public static func resolve(
        _ environment: [String: String], http: OutboundHTTPClient = .shared
    ) async throws -> [String: String] {
        guard isNamed(in: environment), let secret = environment[secretVariable] else { return environment }
        guard let region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"],
            let credentials = AWSCredentials(environment: environment)
        else { throw OIDCClientSecretSourceError.noCredentials }
        let value: String
        do {
            value = try await SigningKeySecret.secretValue(
                secret, region: region, credentials: credentials, environment, http: http)
        } catch SigningKeySecretError.empty {
            throw OIDCClientSecretSourceError.empty
        }
        guard !value.isEmpty else { throw OIDCClientSecretSourceError.empty }
        var resolved = environment
        resolved[valueVariable] = value
        return resolved
    }
}

/// The OIDC client secret's secret could not be read; names what, never a value.
public enum OIDCClientSecretSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    case noCredentials
    case empty

    public var description: String {
        switch self {
        case .noCredentials:
            "reading the OIDC client secret's secret (OIDC_CLIENT_SECRET_ARN) needs AWS_REGION and the role's credentials"
        case .empty: "the OIDC client secret's secret (OIDC_CLIENT_SECRET_ARN) has no string value"
        }
    }
}
