import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the Runtime API says about one invocation, handed to the handler with its event.
public struct LambdaContext: Sendable {
    /// `Lambda-Runtime-Aws-Request-Id`.
    public let requestID: String
    /// `Lambda-Runtime-Deadline-Ms`: when the invocation times out, in milliseconds since the epoch.
    public let deadlineMilliseconds: Int64
    /// `Lambda-Runtime-Invoked-Function-Arn`.
    public let invokedFunctionARN: String
    /// `Lambda-Runtime-Trace-Id`, when X-Ray tracing sent one.
    public let traceID: String?
    /// `Lambda-Runtime-Client-Context`: the mobile SDK's client context, as sent (JSON text).
    public let clientContext: String?
    /// `Lambda-Runtime-Cognito-Identity`: the mobile SDK's Cognito identity, as sent (JSON text).
    public let cognitoIdentity: String?
    /// A logger whose every line carries this request id.
    public let logger: Logger

    /// Creates a context; the runtime loop does this from the `/next` response headers.
    public init(
        requestID: String,
        deadlineMilliseconds: Int64,
        invokedFunctionARN: String,
        traceID: String? = nil,
        clientContext: String? = nil,
        cognitoIdentity: String? = nil,
        logger: Logger
    ) {
        self.requestID = requestID
        self.deadlineMilliseconds = deadlineMilliseconds
        self.invokedFunctionARN = invokedFunctionARN
        self.traceID = traceID
        self.clientContext = clientContext
        self.cognitoIdentity = cognitoIdentity
        var logger = logger
        logger[metadataKey: "requestId"] = .string(requestID)
        self.logger = logger
    }

    /// Milliseconds left before the deadline, measured against the wall clock (the deadline is wall-clock time).
    public func remainingMilliseconds(now: Date = Date()) -> Int64 {
        deadlineMilliseconds - Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
