import OutboundHTTP

/// What every deployed function reads at its cold start, before its settings: its issuer
/// (`IssuerParameter`), when it signs its signing keys (`SigningKeySecret`), and when it stores
/// codes the OTP secret (`OTPSecretSource`). Each is read only when the environment names where it is and does
/// not give it directly, so a local run reads nothing.
public enum DeployedEnvironment {
    /// `environment` with what it names filled in.
    public static func resolve(
        _ environment: [String: String], http: OutboundHTTPClient = .shared
    ) async throws -> [String: String] {
        let withIssuer = try await IssuerParameter.resolve(environment, http: http)
        return try await OTPSecretSource.resolve(SigningKeySecret.resolve(withIssuer, http: http), http: http)
    }
}
