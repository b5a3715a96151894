import AWSSecrets
import AuthKit
import Foundation

extension UsersCommand {
    /// The functions' OTP secret, which TOTP secrets are sealed under: `OTP_SECRET`,
    /// `OTP_SECRET_FILE`, or the Secrets Manager secret `OTP_SECRET_ARN` names; else, with the
    /// file store, the local one start-api's functions use (made if missing); else nil.
    static func otpSecret(_ project: ProjectOptions) async throws -> OTPSecret? {
        var environment = ProcessInfo.processInfo.environment
        if project.storeKind == .file,
            ["OTP_SECRET", "OTP_SECRET_FILE", "OTP_SECRET_ARN"].allSatisfy({ (environment[$0] ?? "").isEmpty })
        {
            environment["OTP_SECRET_FILE"] =
                URL(fileURLWithPath: project.stateDirectory).appendingPathComponent("otp-secret").path
        }
        return try OTPSecret.optional(environment: try await OTPSecretSource.resolve(environment))
    }
}
