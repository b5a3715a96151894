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

    let endpoint: RuntimeAPIEndpoint
    let logger: Logger
    /// Stops after this many invocations; nil (production) runs until the process is stopped.
    var maxInvocations: Int? = nil

    /// Runs the loop against the Runtime API at `endpoint`. Throws when it cannot be reached or
    /// answers out of contract.
    ///
    /// Everything happens on a thread of the loop's own (see `RuntimeThreadExecutor`), which
    /// ends with the loop.
    func run(makeHandler: @Sendable () async throws -> any ByteLambdaHandler) async throws -> Outcome {
        let executor = RuntimeThreadExecutor()
        defer { executor.shutdown() }
        return try await withTaskExecutorPreference(executor) {
            try await run(api: RuntimeAPIClient(endpoint: endpoint), makeHandler: makeHandler)
        }
    }

    /// Runs the loop against `api` on the calling thread.
    func run(api: some RuntimeAPI, makeHandler: () async throws -> any ByteLambdaHandler) async throws -> Outcome {
        let handler: any ByteLambdaHandler
        do {
            handler = try await makeHandler()
        } catch {
            let report = InvocationError(reporting: error)
            logger.error("initialisation failed", metadata: ["errorType": .string(report.type)])
            try api.failInit(report)
            return .initializationFailed
        }
        var handled = 0
        while maxInvocations.map({ handled < $0 }) ?? true {
            let event = try api.next()
            let context = Self.context(requestID: event.requestID, header: event.header, logger: logger)
            Self.setTraceEnvironment(context.traceID)
            try await invoke(handler, with: event, context: context, api: api)
            handled += 1
        }
        return .invocationLimitReached
    }

    /// One invocation: the handler's answer, or its failure, or `Function.ResponseSizeTooLarge`
    /// for an answer over Lambda's limit.
    private func invoke(
        _ handler: any ByteLambdaHandler, with event: RuntimeEvent, context: LambdaContext, api: some RuntimeAPI
    ) async throws {
        let payload: ByteBuffer
        let deadline = context.deadlineMilliseconds > 0 ? context.deadlineMilliseconds : nil
        let later = AfterResponse()
        do {
            payload = try await InvocationDeadline.$milliseconds.withValue(deadline) {
                try await AfterResponse.$current.withValue(later) {
                    try await handler.handle(event.body, context: context)
                }
            }
        } catch {
            return try fail(InvocationError(reporting: error), requestID: event.requestID, context: context, api: api)
        }
        guard payload.readableBytes <= PayloadLimits.synchronousPayloadBytes else {
            let message =
                "Response payload size (\(payload.readableBytes) bytes) exceeded maximum allowed payload size (\(PayloadLimits.synchronousPayloadBytes) bytes)."
            return try fail(
                InvocationError(type: "Function.ResponseSizeTooLarge", message: message), requestID: event.requestID,
                context: context, api: api)
        }
        if try !api.respond(requestID: event.requestID, payload: payload) {
            context.logger.error("the Runtime API refused the response")
        }
        await InvocationDeadline.$milliseconds.withValue(deadline) { await later.run(logger: context.logger) }
    }

    private func fail(
        _ report: InvocationError, requestID: String, context: LambdaContext, api: some RuntimeAPI
    ) throws {
        context.logger.error("invocation failed", metadata: ["errorType": .string(report.type)])
        try api.fail(requestID: requestID, error: report)
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
