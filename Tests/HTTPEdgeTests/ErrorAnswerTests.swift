import AuthKit
import GatehouseJSON
import LambdaRuntime
import Logging
import Testing

@testable import HTTPEdge

/// The one mapping from a thrown error to an answer.
struct ErrorAnswerTests {
    static let context = LambdaContext(
        requestID: "req-7", deadlineMilliseconds: 0, invokedFunctionARN: "arn:aws:lambda:local:0:function:T",
        logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })

    struct Teapot: ClientError {
        var status: Int { 418 }
        var code: String { "teapot" }
        var description: String { "I am a teapot." }
    }

    struct Secret: Error, CustomStringConvertible {
        var description: String { "the database password is hunter2" }
    }

    static func body(_ response: HTTPResponse) throws -> JSONValue {
        try JSONValue(parsing: Array(try #require(response.body).utf8))
    }

    @Test func aBadBodyIsInvalidRequest() throws {
        let answer = ErrorAnswer.response(to: RequestBodyError.field("app", "is required"), context: Self.context)
        #expect(answer.statusCode == 400)
        #expect(try Self.body(answer)["error"] == "invalid_request")
        #expect(try Self.body(answer)["message"]?.stringValue?.contains("app") == true)
    }

    @Test func aClientErrorKeepsItsStatusAndCode() throws {
        let answer = ErrorAnswer.response(to: Teapot(), context: Self.context)
        #expect(answer.statusCode == 418)
        #expect(try Self.body(answer) == ["error": "teapot", "message": "I am a teapot."])
        let missing = ErrorAnswer.response(to: MissingSignedInUser(), context: Self.context)
        #expect(missing.statusCode == 401)
        #expect(try Self.body(missing)["error"] == "unauthorized")
    }

    @Test func anythingElseIsA500WithTheRequestIDAndNoDetail() throws {
        let answer = ErrorAnswer.response(to: Secret(), context: Self.context)
        #expect(answer.statusCode == 500)
        let body = try Self.body(answer)
        #expect(body["error"] == "internal_error")
        #expect(body["requestId"] == "req-7")
        #expect(answer.body?.contains("hunter2") == false)
    }

    /// The phone routes' refusals also say `success: false`, beside the code and the sentence
    /// (and a rate limit's `retryAfter`); other routes' answers do not change.
    @Test func markingFailureAddsSuccessFalseBesideTheRest() throws {
        let refused = ErrorAnswer.response(to: SignInError.codeRefused, context: Self.context, markingFailure: true)
        #expect(refused.statusCode == 401)
        #expect(
            try Self.body(refused)
                == [
                    "success": false, "error": "invalid_code",
                    "message": "The code is invalid, already used or expired.",
                ])
        let limited = ErrorAnswer.response(
            to: SignInError.rateLimited(retryAfter: 3600), context: Self.context, markingFailure: true)
        #expect(limited.headers["retry-after"] == "3600")
        #expect(try Self.body(limited)["success"] == false)
        #expect(try Self.body(limited)["error"] == "rate_limited")
        #expect(try Self.body(limited)["retryAfter"] == 3600)
        let bad = ErrorAnswer.response(
            to: RequestBodyError.field("code", "is required"), context: Self.context, markingFailure: true)
        #expect(try Self.body(bad)["success"] == false)
        #expect(try Self.body(ErrorAnswer.response(to: Teapot(), context: Self.context))["success"] == nil)
    }
}
