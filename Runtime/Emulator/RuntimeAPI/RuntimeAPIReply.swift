import LambdaRuntime
import NIOCore

/// What the Runtime API answers a runtime: a status and a small JSON body, as AWS documents them.
public struct RuntimeAPIReply: Sendable, Equatable {
    public let status: Int
    public let body: String

    static let accepted = RuntimeAPIReply(status: 202, body: #"{"status":"OK"}"#)

    static func error(_ status: Int, _ errorType: String, _ message: String) -> RuntimeAPIReply {
        RuntimeAPIReply(status: status, body: ErrorPayload.json(errorType: errorType, errorMessage: message))
    }

    static let invalidRequestID = error(400, "InvalidRequestID", "Invalid request ID")
    static let nextAlreadyWaiting = error(
        400, "InvalidRequest", "Another request for the next invocation is already waiting")
    static func invalidStateTransition(_ detail: String) -> RuntimeAPIReply {
        error(403, "InvalidStateTransition", "State transition is not allowed: \(detail)")
    }
    static let payloadTooLarge = error(
        413,
        "RequestEntityTooLarge",
        "Exceeded maximum allowed payload size (\(PayloadLimits.synchronousPayloadBytes) bytes)."
    )
    static let shuttingDown = error(500, "Runtime.ShuttingDown", "The execution environment is shutting down")
}
