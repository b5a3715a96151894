import NIOCore

/// One event on its way to a function instance, with the headers `/next` will carry.
public struct Invocation: Sendable {
    public let requestID: String
    public let payload: ByteBuffer
    public let invokedFunctionARN: String
    /// How long the function may take once the runtime has the event.
    public let timeout: Duration
    public let traceID: String?
    public let clientContext: String?
    public let cognitoIdentity: String?

    public init(
        requestID: String, payload: ByteBuffer, invokedFunctionARN: String, timeout: Duration,
        traceID: String? = nil, clientContext: String? = nil, cognitoIdentity: String? = nil
    ) {
        self.requestID = requestID
        self.payload = payload
        self.invokedFunctionARN = invokedFunctionARN
        self.timeout = timeout
        self.traceID = traceID
        self.clientContext = clientContext
        self.cognitoIdentity = cognitoIdentity
    }
}
