import AWSCalls
import AWSSigning
import OutboundHTTP

/// A Secrets Manager secret's string, read with the function's role (Lambda's region and
/// credentials; `AWS_ENDPOINT_URL_SECRETS_MANAGER` for a local endpoint): a delivery provider's
/// key or token. The value is returned, never logged; errors name the secret's variable only.
public enum SecretString {
    /// `GetSecretValue`'s `SecretString` for the secret named (by name or ARN) `id`.
    public static func read(
        _ id: String, environment: [String: String], http: OutboundHTTPClient = .shared
    ) async throws -> String {
        guard let region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"],
            let credentials = AWSCredentials(environment: environment)
        else { throw SecretStringError.noCredentials }
        return try await SigningKeySecret.secretValue(
            id, region: region, credentials: credentials, environment, http: http)
    }
}

/// A provider's secret could not be read without Lambda's region and credentials.
public enum SecretStringError: Error, Sendable, Equatable, CustomStringConvertible {
    case noCredentials

    public var description: String {
        "reading a delivery provider's secret needs AWS_REGION and the role's credentials"
    }
}
