import AWSCalls
import AWSSigning
import OutboundHTTP

/// Where a deployed function's issuer comes from when the deploy gave none: the SSM parameter
/// (`ISSUER_PARAMETER`) that CloudFormation writes from the HTTP API's own URL
/// (`https://{api id}.execute-api.{region}.{URL suffix}`), read once at the cold start.
///
/// A function's environment cannot name the API's id itself: the API's routes name the
/// functions, so the stack would be a circle. The parameter depends on the API, and the
/// functions know only its name (built from the stack's name), not the resource, so nothing
/// goes round. `ISSUER` given (a custom domain, or a local run's own address) wins, and the
/// parameter is not read.
public enum IssuerParameter {
    /// `environment` with `ISSUER` set from the parameter it names, when `ISSUER` is empty.
    public static func resolve(
        _ environment: [String: String], http: OutboundHTTPClient = .shared
    ) async throws -> [String: String] {
        guard (environment["ISSUER"] ?? "").isEmpty,
            let name = environment["ISSUER_PARAMETER"].flatMap({ $0.isEmpty ? nil : $0 })
        else { return environment }
        guard let region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"],
            let credentials = AWSCredentials(environment: environment)
        else { throw IssuerParameterError.noCredentials }
        var value = try await SigningKeySecret.parameterValue(
            name, region: region, credentials: credentials, environment, http: http)
        while value.hasSuffix("/") { value.removeLast() }
        guard value.hasPrefix("https://") || value.hasPrefix("http://"), value.count > "https://".count else {
            throw IssuerParameterError.notAURL(name)
        }
        var resolved = environment
        resolved["ISSUER"] = value
        return resolved
    }
}

/// The issuer's parameter could not be used; names the parameter, never a credential.
public enum IssuerParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    case noCredentials
    case notAURL(String)

    public var description: String {
        switch self {
        case .noCredentials:
            "reading the issuer's parameter (ISSUER_PARAMETER) needs AWS_REGION and the role's credentials"
        case .notAURL(let name): "the issuer's parameter \(name) does not hold an http or https URL"
        }
    }
}
