import AuthKit
import GatehouseJSON
import LambdaRuntime
import Logging

/// The one place a thrown error becomes an HTTP answer, with the one log line it gets.
enum ErrorAnswer {
    /// `RequestBodyError` → 400 `invalid_request`; a `ClientError` → its status and code (and,
    /// for a rate limit, `Retry-After` and `retryAfter`);
    /// anything else → 500 `internal_error` that names only the request id (the cause is in the
    /// log, under that id).
    static func response(to error: any Error, context: LambdaContext) -> HTTPResponse {
        switch error {
        case let error as RequestBodyError:
            context.logger.info("request refused", metadata: ["reason": "invalid_request"])
            return .error(400, code: "invalid_request", message: error.description)
        case let error as any ClientError:
            context.logger.info("request refused", metadata: ["reason": .string(error.code)])
            guard let retryAfter = error.retryAfter else {
                return .error(error.status, code: error.code, message: error.description)
            }
            return .json(
                error.status,
                [
                    "error": .string(error.code), "message": .string(error.description),
                    "retryAfter": .number(Double(retryAfter)),
                ], headers: ["retry-after": String(retryAfter)])
        default:
            context.logger.error(
                "request failed",
                metadata: ["errorType": .string(String(describing: type(of: error))), "error": "\(error)"])
            return .json(
                500,
                [
                    "error": "internal_error", "message": "The request failed on the server.",
                    "requestId": .string(context.requestID),
                ])
        }
    }
}
