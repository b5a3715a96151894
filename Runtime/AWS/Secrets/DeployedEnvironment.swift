import LambdaRuntime
import OutboundHTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a deployed function fetches at its cold start, besides its settings: its signing keys
/// (`SigningKeySecret`), when it stores codes the OTP secret (`OTPSecretSource`), when it redeems
/// the OIDC provider's codes the client secret (`OIDCClientSecretSource`), and when it serves or
/// checks with the public keys alone those (`PublicKeysParameter`). Each is read only when the
/// environment names where it is and does not give it directly, so a local run reads nothing.
///
/// The issuer is never fetched: given (`ISSUER`: a custom domain, a local run's address), or
/// built from each event's API id under `ISSUER_API_DOMAIN` (`StartingEnvironment`).
public enum DeployedEnvironment {
    /// The process's environment, which `starting` reads by default.
    public static var process: [String: String] { ProcessInfo.processInfo.environment }

    /// `environment` as a function starts from it: the reads it names run while the runtime asks
    /// for the first event (`Lambda.runHTTP(_:_:)`); with `publicKeys`, the public keys' too.
    /// Without `issuer` (a function that issues nothing and checks no issuer, or one given its
    /// issuer otherwise), no issuer is built from its events.
    public static func starting(
        _ environment: [String: String] = ProcessInfo.processInfo.environment, publicKeys: Bool = false,
        issuer: Bool = true, http: OutboundHTTPClient = .shared
    ) -> StartingEnvironment {
        var start =
            reads(environment, publicKeys: publicKeys).isEmpty
            ? StartingEnvironment(environment)
            : StartingEnvironment(environment) { environment in
                try await resolve(environment, publicKeys: publicKeys, http: http)
            }
        if !issuer { start.issuerDomain = nil }
        return start
    }

    /// `environment` with what it names filled in: the reads at once, each over the process's
    /// client (so later calls to the same service reuse its connection).
    public static func resolve(
        _ environment: [String: String], publicKeys: Bool = false, http: OutboundHTTPClient = .shared
    ) async throws -> [String: String] {
        let reads = reads(environment, publicKeys: publicKeys)
        guard !reads.isEmpty else { return environment }
        // Load libcurl on a thread of its own while the first call is prepared.
        OutboundHTTPClient.preloadInBackground()
        return try await withThrowingTaskGroup(of: [String: String].self) { group in
            for read in reads { group.addTask { try await read(environment, http) } }
            // Each sets its own variables in the same environment: only what it changed is taken.
            var resolved = environment
            for try await read in group {
                for (name, value) in read where environment[name] != value { resolved[name] = value }
            }
            return resolved
        }
    }

    /// The reads `environment` names and does not give directly.
    private static func reads(_ environment: [String: String], publicKeys: Bool) -> [Read] {
        var reads: [Read] = []
        if SigningKeySecret.isNamed(in: environment) { reads.append(SigningKeySecret.resolve) }
        if OTPSecretSource.isNamed(in: environment) { reads.append(OTPSecretSource.resolve) }
        if OIDCClientSecretSource.isNamed(in: environment) { reads.append(OIDCClientSecretSource.resolve) }
        if publicKeys && PublicKeysParameter.isNamed(in: environment) { reads.append(PublicKeysParameter.resolve) }
        return reads
    }

    /// One of the reads: `environment` with what it read set.
    private typealias Read = @Sendable ([String: String], OutboundHTTPClient) async throws -> [String: String]
}
