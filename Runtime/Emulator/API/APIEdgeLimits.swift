/// What the local API's HTTP server accepts from a client before a request reaches the gateway,
/// as API Gateway bounds it: the defaults are API Gateway's (10 KB of request line and headers,
/// 10 MB of body, idle connections closed).
public struct APIEdgeLimits: Sendable {
    /// The request line and header lines together; more is 431 and the connection closes.
    public var maximumHeadBytes: Int
    /// A body; a request declaring more is 413 before its body is read, and the connection closes.
    public var maximumBodyBytes: Int
    /// How long a connection may take to send a whole request, from its opening or from the
    /// previous answer; then it is closed. Idle keep-alive connections and clients that drip
    /// bytes to hold a connection (slowloris) both end this way.
    public var requestTimeout: Duration
    /// Open connections at once; the next one is closed as soon as it is accepted.
    public var maximumConnections: Int

    public init(
        maximumHeadBytes: Int = 10 * 1024, maximumBodyBytes: Int = LocalAPIGateway.maximumRequestBytes,
        requestTimeout: Duration = .seconds(60), maximumConnections: Int = 1024
    ) {
        self.maximumHeadBytes = maximumHeadBytes
        self.maximumBodyBytes = maximumBodyBytes
        self.requestTimeout = requestTimeout
        self.maximumConnections = maximumConnections
    }
}
