import GatehouseJSON
import Logging
import NIOCore

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

/// The Runtime API loop: `/next` → handler → `/response` or `/error`, after an initialisation
/// whose failure goes to `/init/error`.
struct RuntimeLoop {
    /// How the loop ended.
    enum Outcome: Equatable {
        /// Initialisation failed and was reported to `/init/error`; the process must exit.
        case initializationFailed
        /// The test-only invocation limit was reached.
        case invocationLimitReached
    }

    static let apiPrefix = "/2018-06-01/runtime"

    let endpoint: RuntimeAPIEndpoint
    let logger: Logger
    /// Stops after this many invocations; nil (production) runs until the process is stopped.
    var maxInvocations: Int? = nil

    /// Runs the loop. Throws when the Runtime API cannot be reached or answers out of contract.
    ///
    /// Everything happens on a thread of the loop's own (see `RuntimeThreadExecutor`), which
    /// ends with the loop.
    func run(makeHandler: @Sendable () async throws -> any ByteLambdaHandler) async throws -> Outcome {
        let executor = RuntimeThreadExecutor()
        defer { executor.shutdown() }
        return try await withTaskExecutorPreference(executor) {
            try await runOnThisThread(makeHandler: makeHandler)
        }
    }

    private func runOnThisThread(
        makeHandler: @Sendable () async throws -> any ByteLambdaHandler
    ) async throws
        -> Outcome
    {
        let client = RuntimeAPIClient(endpoint: endpoint)
        let handler: any ByteLambdaHandler
        do {
            handler = try await makeHandler()
        } catch {
            let report = InvocationError(reporting: error)
            logger.error("initialisation failed", metadata: ["errorType": .string(report.type)])
            _ = try client.send(
                "POST",
                "\(Self.apiPrefix)/init/error",
                headers: [("Lambda-Runtime-Function-Error-Type", report.type), ("Content-Type", "application/json")],
                body: Self.errorBody(report)
            )
            return .initializationFailed
        }

        var handled = 0
        while maxInvocations.map({ handled < $0 }) ?? true {
            let next = try client.send("GET", "\(Self.apiPrefix)/invocation/next")
            guard next.status == 200 else {
                throw RuntimeLoopError.unexpectedStatus(path: "/invocation/next", status: next.status)
            }
            guard let requestID = next.header("Lambda-Runtime-Aws-Request-Id"), !requestID.isEmpty else {
                throw RuntimeLoopError.missingRequestID
            }
            let context = Self.context(requestID: requestID, header: next.header, logger: logger)
            Self.setTraceEnvironment(context.traceID)

            let result: Result<ByteBuffer, InvocationError>
            do {
                result = .success(try await handler.handle(next.body, context: context))
            } catch {
                result = .failure(InvocationError(reporting: error))
            }

            switch result {
            case .success(let payload) where payload.readableBytes <= PayloadLimits.synchronousPayloadBytes:
                let answer = try client.send(
                    "POST",
                    "\(Self.apiPrefix)/invocation/\(requestID)/response",
                    headers: [("Content-Type", "application/json")],
                    body: payload
                )
                if answer.status != 202 {
                    context.logger.error(
                        "the Runtime API refused the response",
                        metadata: ["status": "\(answer.status)", "body": .string(String(buffer: answer.body))]
                    )
                }
            case .success(let payload):
                try postError(
                    InvocationError(
                        type: "Function.ResponseSizeTooLarge",
                        message:
                            "Response payload size (\(payload.readableBytes) bytes) exceeded maximum allowed payload size (\(PayloadLimits.synchronousPayloadBytes) bytes)."
                    ),
                    requestID: requestID,
                    context: context,
                    client: client
                )
            case .failure(let report):
                try postError(report, requestID: requestID, context: context, client: client)
            }
            handled += 1
        }
        return .invocationLimitReached
    }

    private func postError(
        _ report: InvocationError,
        requestID: String,
        context: LambdaContext,
        client: RuntimeAPIClient
    ) throws {
        context.logger.error("invocation failed", metadata: ["errorType": .string(report.type)])
        _ = try client.send(
            "POST",
            "\(Self.apiPrefix)/invocation/\(requestID)/error",
            headers: [("Lambda-Runtime-Function-Error-Type", report.type), ("Content-Type", "application/json")],
            body: Self.errorBody(report)
        )
    }

    static func context(requestID: String, header: (String) -> String?, logger: Logger) -> LambdaContext {
        func optional(_ name: String) -> String? {
            guard let value = header(name), !value.isEmpty else { return nil }
            return value
        }
        return LambdaContext(
            requestID: requestID,
            deadlineMilliseconds: optional("Lambda-Runtime-Deadline-Ms").flatMap { Int64($0) } ?? 0,
            invokedFunctionARN: optional("Lambda-Runtime-Invoked-Function-Arn") ?? "",
            traceID: optional("Lambda-Runtime-Trace-Id"),
            clientContext: optional("Lambda-Runtime-Client-Context"),
            cognitoIdentity: optional("Lambda-Runtime-Cognito-Identity"),
            logger: logger
        )
    }

    /// Lambda's contract: `_X_AMZN_TRACE_ID` holds the current invocation's trace id, and is
    /// absent when that invocation has none (so an old id never leaks into the next invocation).
    static func setTraceEnvironment(_ traceID: String?) {
        if let traceID {
            setenv("_X_AMZN_TRACE_ID", traceID, 1)
        } else {
            unsetenv("_X_AMZN_TRACE_ID")
        }
    }

    /// `{"errorType","errorMessage","stackTrace":[]}`, the body the Runtime API expects.
    static func errorBody(_ report: InvocationError) -> ByteBuffer {
        var text = "{\"errorType\":"
        JSONValue.appendQuoted(report.type, to: &text)
        text += ",\"errorMessage\":"
        JSONValue.appendQuoted(report.message, to: &text)
        text += ",\"stackTrace\":[]}"
        return ByteBuffer(string: text)
    }
}

/// The Runtime API answered in a way the contract does not allow.
enum RuntimeLoopError: Error, CustomStringConvertible {
    case unexpectedStatus(path: String, status: Int)
    case missingRequestID

    var description: String {
        switch self {
        case .unexpectedStatus(let path, let status): "the Runtime API answered \(status) to \(path)"
        case .missingRequestID: "the Runtime API sent an event without Lambda-Runtime-Aws-Request-Id"
        }
    }
}
