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
    public var payload: ByteBuffer {
        switch outcome {
        case .response(let body): return body
        case .functionError(_, let payload), .initError(_, let payload): return payload
        case .responseTooLarge:
            return ByteBuffer(
                string: ErrorPayload.json(
                    errorType: "Function.ResponseSizeTooLarge",
                    errorMessage: "Response payload size exceeded maximum allowed payload size (6291556 bytes)."
                )
            )
        case .timedOut(let seconds):
            return ByteBuffer(
                string: ErrorPayload.json(
                    errorType: "Sandbox.Timedout",
                    errorMessage:
                        "RequestId: \(requestID) Error: Task timed out after \(InvocationReport.format(seconds)) seconds"
                )
            )
        case .exited(let termination):
            return ByteBuffer(
                string: ErrorPayload.json(
                    errorType: "Runtime.ExitError",
                    errorMessage:
                        "RequestId: \(requestID) Error: Runtime exited with error: \(termination.lambdaDescription)"
                )
            )
        case .cancelled:
            return ByteBuffer(
                string: ErrorPayload.json(
                    errorType: "Runtime.Cancelled", errorMessage: "the emulator stopped the function")
            )
        }
    }
}
