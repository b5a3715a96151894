import LambdaRuntime

/// An HTTP function's handler: parse the request, call the domain, answer.
///
/// It does not catch what the domain throws: the edge answers it (`answer`). By default a
/// `RequestBodyError` is a 400, a `ClientError` its status and code, and anything else a 500
/// that carries only the request id (`ErrorAnswer`); an API with another error dialect
/// (Supabase's) gives its handlers another `answer`, in one place.
public protocol HTTPHandler: Sendable {
    /// The answer to one request.
    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse

    /// The answer when `handle` threw `error` for `request`, with the one log line it gets.
    func answer(_ error: any Error, to request: HTTPRequest, context: LambdaContext) -> HTTPResponse
}

extension HTTPHandler {
    /// Gatehouse's own error answers (`ErrorAnswer`).
    public func answer(_ error: any Error, to request: HTTPRequest, context: LambdaContext) -> HTTPResponse {
        ErrorAnswer.response(to: error, context: context)
    }
}
