import NIOCore

/// How an invocation ended, as the emulator saw it.
public enum InvocationOutcome: Sendable, Equatable {
    /// The runtime posted a response.
    case response(ByteBuffer)
    /// The runtime posted an invocation error; `payload` is the error JSON it sent.
    case functionError(errorType: String, payload: ByteBuffer)
    /// Initialisation failed and the runtime said so on `/init/error`.
    case initError(errorType: String, payload: ByteBuffer)
    /// The response was larger than Lambda allows.
    case responseTooLarge
    /// The function (or its initialisation) ran out of time; the instance must be killed.
    case timedOut(seconds: Double)
    /// The process ended before answering.
    case exited(ChildProcess.Termination)
    /// The emulator stopped the instance before it answered.
    case cancelled

    /// True for every outcome but a response.
    public var isError: Bool {
        if case .response = self { return false }
        return true
    }

    /// The `errorType` Lambda reports for this outcome, nil for a response.
    public var errorType: String? {
        switch self {
        case .response: nil
        case .functionError(let type, _), .initError(let type, _): type
        case .responseTooLarge: "Function.ResponseSizeTooLarge"
        case .timedOut: "Sandbox.Timedout"
        case .exited: "Runtime.ExitError"
        case .cancelled: "Runtime.Cancelled"
        }
    }
}
