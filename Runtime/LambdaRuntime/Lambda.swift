import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point of a function binary.
///
/// ```swift
/// await Lambda.runBytes { try await MyHandler(configuration: .fromEnvironment()) }
/// ```
///
/// `makeHandler` runs once, during initialisation; its failure is reported to
/// `/runtime/init/error` and the process exits with status 1.
public enum Lambda {
    /// Runs a raw bytes handler until the process is stopped.
    public static func runBytes(
        _ makeHandler: @escaping @Sendable () async throws -> any ByteLambdaHandler
    ) async -> Never {
        let logger = LambdaLogHandler.bootstrap()
        guard let value = ProcessInfo.processInfo.environment["AWS_LAMBDA_RUNTIME_API"] else {
            logger.critical("AWS_LAMBDA_RUNTIME_API is not set: this binary runs under a Lambda Runtime API")
            exit(1)
        }
        guard let endpoint = RuntimeAPIEndpoint(value) else {
            logger.critical("AWS_LAMBDA_RUNTIME_API is not host:port", metadata: ["value": .string(value)])
            exit(1)
        }
        do {
            let outcome = try await RuntimeLoop(endpoint: endpoint, logger: logger).run(makeHandler: makeHandler)
            exit(outcome == .initializationFailed ? 1 : 0)
        } catch {
            logger.critical("runtime loop stopped", metadata: ["error": .string(String(describing: error))])
            exit(1)
        }
    }

    /// Runs a raw bytes handler built from `start`'s environment: during initialisation when
    /// that is complete, otherwise on the first event, with the fetch started now
    /// (`StartingEnvironment`, `FirstEventHandler`).
    public static func runBytes(
        _ start: StartingEnvironment,
        _ makeHandler: @escaping @Sendable (_ environment: [String: String]) async throws -> any ByteLambdaHandler
    ) async -> Never {
        await runBytes {
            if start.isComplete { return try await makeHandler(start.environment) }
            return FirstEventHandler(start: start, makeHandler: makeHandler)
        }
    }
}
