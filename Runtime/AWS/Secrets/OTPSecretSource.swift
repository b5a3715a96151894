import AWSCalls
import AWSSigning
import OutboundHTTP

/// Where a deployed function's OTP secret (the HMAC key of phone codes and account emails'
/// six-digit codes) comes from: the Secrets Manager secret the stack generates
/// (`OTP_SECRET_ARN`), read once at the cold start into the environment the function's services
/// read, as `OTP_SECRET` (in memory only: never in the process's own environment, never
/// logged). A secret given directly (`OTP_SECRET`, or `OTP_SECRET_FILE` as local runs give it)
/// wins, and nothing is read.
public enum OTPSecretSource {
    /// True when `environment` names the secret and gives none directly.
    public static func isNamed(in environment: [String: String]) -> Bool {
        let direct = ["OTP_SECRET", "OTP_SECRET_FILE"].contains { !(environment[$0] ?? "").isEmpty }
        return !(environment["OTP_SECRET_ARN"] ?? "").isEmpty && !direct
    }

    /// `environment` with `OTP_SECRET` set from the secret it names.
    public static func resolve(
        _ environment: [String: String], http: OutboundHTTPClient = .shared
    ) async throws -> [String: String] {
        guard isNamed(in: environment), let secret = environment["OTP_SECRET_ARN"] else { return environment }
        guard let region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"],
            let credentials = AWSCredentials(environment: environment)
        else { throw OTPSecretSourceError.noCredentials }
        var resolved = environment
        resolved["OTP_SECRET"] = try await SigningKeySecret.secretValue(
            secret, region: region, credentials: credentials, environment, http: http)
        return resolved
    }
}

/// The OTP secret's secret could not be read; names what, never a value.
public enum OTPSecretSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    case noCredentials

    public var description: String {
        "reading the OTP secret's secret (OTP_SECRET_ARN) needs AWS_REGION and the role's credentials"
    }
}
