/// What an audit event takes from the request being answered, and where its write goes: bound
/// for each request by the function's HTTP adapter (`HTTPEdge`), so every service records with
/// the request's source and client family without passing them along.
///
/// Outside a request (tests, the terminal) there is none: an event is written at once and a
/// failed write is dropped.
public struct AuditRequest: Sendable {
    /// The request's; nil outside one.
    @TaskLocal public static var current: AuditRequest?

    /// The caller's address as API Gateway saw it (kept only when it reads as an IP address).
    public let sourceIP: String?
    /// The family of the caller's client, never its `User-Agent`.
    public let agent: UserAgentFamily?
    /// Where the write runs: after the answer (LambdaRuntime's `AfterResponse.later`).
    public let later: Deferred
    /// Told of each failed write by the error's type, never its text (it may name an item):
    /// the function logs it and counts it in the `AuditWriteFailures` metric.
    public let writeFailed: @Sendable (_ errorType: String) -> Void

    public init(
        sourceIP: String?, agent: UserAgentFamily?, later: Deferred,
        writeFailed: @escaping @Sendable (_ errorType: String) -> Void
    ) {
        self.sourceIP = sourceIP
        self.agent = agent
        self.later = later
        self.writeFailed = writeFailed
    }
}
