import AuthKit
import GatehouseJSON
import LambdaRuntime
import Logging

/// The one place a thrown error becomes an HTTP answer, with the one log line it gets.
public enum ErrorAnswer {
    /// `RequestBodyError` → 400 `invalid_request`; a `ClientError` → its status and code (and,
    /// for a rate limit, `Retry-After` and `retryAfter`);
    /// anything else → 500 `internal_error` that names only the request id (the cause is in the
    /// log, under that id). With `markingFailure`, the body also says `"success": false` (the
    /// phone routes, whose clients read that member).
    public static func response(
        to error: any Error, context: LambdaContext, markingFailure: Bool = false
    ) -> HTTPResponse {
        let extra: [String: JSONValue] = markingFailure ? ["success": false] : [:]
        switch error {
        case let error as RequestBodyError:
            context.logger.info("request refused", metadata: ["reason": "invalid_request"])
            return answer(400, ["error": "invalid_request", "message": .string(error.description)], extra)
        case let error as any ClientError:
            log(error.code, status: error.status, description: error.description, context: context)
            guard let retryAfter = error.retryAfter else {
                return answer(
                    error.status, ["error": .string(error.code), "message": .string(error.description)], extra)
            }
            return answer(
                error.status,
                [
                    "error": .string(error.code), "message": .string(error.description),
                    "retryAfter": .number(Double(retryAfter)),
                ], extra, headers: ["retry-after": String(retryAfter)])
        default:
            context.logger.error(
                "request failed",
                metadata: [
                    "errorType": .string(String(describing: type(of: error))),
                    "error": .string(LogSafe.description(of: error)),
                ])
            return answer(
                500,
                [
                    "error": "internal_error", "message": "The request failed on the server.",
                    "requestId": .string(context.requestID),
                ], extra)
        }
    }

    /// A refusal's log line: its code; at error level, with its description (which names no
    /// secret, `ClientError`), when it is a failure of the server's side (an access-token hook's).
    public static func log(_ code: String, status: Int, description: String, context: LambdaContext) {
        guard status >= 500 else {
            context.logger.info("request refused", metadata: ["reason": .string(code)])
            return
        }
        context.logger.error("request failed", metadata: ["reason": .string(code), "error": .string(description)])
    }

    private static func answer(
        _ status: Int, _ body: [String: JSONValue], _ extra: [String: JSONValue], headers: [String: String] = [:]
    ) -> HTTPResponse {
        var response = HTTPResponse.json(status, .object(body.merging(extra) { own, _ in own }), headers: headers)
        response.refusalCode = body["error"]?.stringValue
        return response
    }
}
