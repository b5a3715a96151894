import LambdaRuntime

/// An HTTP function's handler: parse the request, call the domain, answer.
///
/// It does not catch what the domain throws: the edge (`HTTPEdgeAdapter`) answers a
/// `RequestBodyError` with 400, a `ClientError` with its status and code, and anything else
/// with a 500 that carries only the request id.
public protocol HTTPHandler: Sendable {
    /// The answer to one request.
    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse
}
