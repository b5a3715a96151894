import OutboundHTTP

/// What every deployed function reads at its cold start, before its settings: its issuer
/// (`IssuerParameter`), when it signs its signing keys (`SigningKeySecret`), when it stores
/// codes the OTP secret (`OTPSecretSource`), and when it redeems the OIDC provider's codes the
/// client secret (`OIDCClientSecretSource`). Each is read only when the environment names where it is and does
/// not give it directly, so a local run reads nothing.
public enum DeployedEnvironment {
    /// `environment` with what it names filled in.
    public static func resolve(
        _ environment: [String: String], http: OutboundHTTPClient = .shared
    ) async throws -> [String: String] {
        let withIssuer = try await IssuerParameter.resolve(environment, http: http)
        let withKeys = try await SigningKeySecret.resolve(withIssuer, http: http)
        let withOTPSecret = try await OTPSecretSource.resolve(withKeys, http: http)
        return try await OIDCClientSecretSource.resolve(withOTPSecret, http: http)
    }
}
