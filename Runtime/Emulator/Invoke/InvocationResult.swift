import LambdaRuntime
import NIOCore

/// Everything one local invocation produced.
public struct InvocationResult: Sendable {
    public let requestID: String
    public let outcome: InvocationOutcome
    public let report: InvocationReport
    /// How the process ended (it is stopped after its answer, as Lambda freezes it).
    public let termination: ChildProcess.Termination
    /// From spawning the process to its answer reaching the emulator: the cold start.
    public let spawnToResult: Duration

    /// The JSON to print: the response, or Lambda's error payload.
    public var payload: ByteBuffer { outcome.payload(requestID: requestID) }
}

extension InvocationOutcome {
    /// What Lambda answers for this outcome of invocation `requestID`: the response, or the
    /// error document (`errorType`, `errorMessage`).
    public func payload(requestID: String) -> ByteBuffer {
        let message: String
        switch self {
        case .response(let body): return body
        case .functionError(_, let payload), .initError(_, let payload): return payload
        case .responseTooLarge:
            message =
                "Response payload size exceeded maximum allowed payload size (\(PayloadLimits.synchronousPayloadBytes) bytes)."
        case .timedOut(let seconds):
            message = "RequestId: \(requestID) Error: Task timed out after \(InvocationReport.format(seconds)) seconds"
        case .exited(let termination):
            message = "RequestId: \(requestID) Error: Runtime exited with error: \(termination.lambdaDescription)"
        case .cancelled:
            message = "the emulator stopped the function"
        }
        // Every outcome but a response has its error type; the types are named in one place.
        return ByteBuffer(string: ErrorPayload.json(errorType: errorType ?? "Unhandled", errorMessage: message))
    }
}
