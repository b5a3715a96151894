import AuthKit
import LambdaRuntime
import Logging
import NIOCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs an `HTTPHandler` as the runtime's byte handler: tells the event's payload format once,
/// reads the request, calls the handler, answers its errors (`ErrorAnswer`), and writes the
/// answer in the format the request came in.
struct HTTPEdgeAdapter<Handler: HTTPHandler>: ByteLambdaHandler {
    let handler: Handler
    /// Where each answered request's `RequestMetric` goes (`METRICS_NAMESPACE`); nil: nowhere.
    var metricsNamespace: String? = ProcessInfo.processInfo.environment["METRICS_NAMESPACE"].flatMap {
        $0.isEmpty ? nil : $0
    }

    func handle(_ event: ByteBuffer, context: LambdaContext) async throws -> ByteBuffer {
        let request = try event.withUnsafeReadableBytes { raw in
            try Self.request(from: raw.bindMemory(to: UInt8.self))
        }
        let response: HTTPResponse = await AuditRequest.$current.withValue(audit(of: request)) {
            do {
                return try await handler.handle(request, context: context)
            } catch {
                return handler.answer(error, to: request, context: context)
            }
        }
        if let metricsNamespace {
            let now = Int((Date().timeIntervalSince1970 * 1000).rounded())
            let metric = RequestMetric(request: request, response: response)
            LambdaLogHandler.writeToStandardError(metric.line(namespace: metricsNamespace, timestamp: now) + "\n")
        }
        return ByteBuffer(bytes: response.serialized(for: request.format))
    }

    /// What the request's audit events take from it (`AuditRequest`): its source and client
    /// family; written after the answer, a failed write logged by type and counted
    /// (`AuditWriteMetric`).
    func audit(of request: HTTPRequest) -> AuditRequest {
        let namespace = metricsNamespace
        return AuditRequest(
            sourceIP: request.sourceIP,
            agent: UserAgentFamily(
                userAgent: request.header("user-agent"), clientInfo: request.header("x-client-info")),
            later: Deferred { try await AfterResponse.later($0) },
            writeFailed: { errorType in
                Logger(label: "audit").error("audit write failed", metadata: ["errorType": .string(errorType)])
                guard let namespace else { return }
                let now = Int((Date().timeIntervalSince1970 * 1000).rounded())
                LambdaLogHandler.writeToStandardError(
                    AuditWriteMetric.line(namespace: namespace, timestamp: now) + "\n")
            })
    }

    /// The request in an event of either format; a malformed event fails the invocation, as
    /// the runtime fails one it cannot decode.
    static func request(from bytes: UnsafeBufferPointer<UInt8>) throws(InvocationError) -> HTTPRequest {
        do {
            return try HTTPRequest(event: bytes, format: PayloadFormat(event: bytes))
        } catch {
            throw InvocationError(
                type: "Runtime.UnmarshalError", message: "could not read the event as an API Gateway request: \(error)")
        }
    }
}

extension Lambda {
    /// Runs an HTTP handler until the process is stopped: API Gateway events of payload format
    /// 1.0 (REST) or 2.0 (HTTP API), each answered in its own format.
    public static func runHTTP<Handler: HTTPHandler>(
        _ makeHandler: @escaping @Sendable () async throws -> Handler
    ) async -> Never {
        await runBytes { HTTPEdgeAdapter(handler: try await makeHandler()) }
    }

    /// `runHTTP`, with the process's environment handed to `makeHandler`: where a function
    /// reads its settings and opens its store.
    public static func runHTTP<Handler: HTTPHandler>(
        _ makeHandler: @escaping @Sendable (_ environment: [String: String]) async throws -> Handler
    ) async -> Never {
        await runHTTP { try await makeHandler(ProcessInfo.processInfo.environment) }
    }

    /// `runHTTP`, with the handler built from `start`'s environment: during initialisation when
    /// that is complete, otherwise on the first event (`StartingEnvironment`): how every deployed
    /// function gets its secrets and its issuer.
    public static func runHTTP<Handler: HTTPHandler>(
        _ start: StartingEnvironment,
        _ makeHandler: @escaping @Sendable (_ environment: [String: String]) async throws -> Handler
    ) async -> Never {
        await runBytes(start) { environment in HTTPEdgeAdapter(handler: try await makeHandler(environment)) }
    }
}
