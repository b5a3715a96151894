import AuthKit
import GatehouseJSON
import OutboundHTTP
import TestServers
import Testing

@testable import AWSSecrets

/// The access-token hook's call: Lambda's Invoke API, signed, to the endpoint the environment
/// names, and every answer that is not the function's claims named without its content.
struct LambdaInvokerTests {
    static func invoker(_ endpoint: String?) -> LambdaInvoker {
        var environment = [
            "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret",
            "AWS_SESSION_TOKEN": "token",
        ]
        environment[LambdaInvoker.endpointVariable] = endpoint
        return LambdaInvoker(environment: environment)
    }

    @Test func anInvocationIsASignedPostOfThePayloadToTheFunctionsPath() async throws {
        let server = try await RecordingServer.start { _ in (200, #"{"claims": {"sub": "u"}}"#) }
        let answer = try await Self.invoker(server.baseURL).invoke(
            "arn:aws:lambda:eu-west-1:123456789012:function:TokenHook", payload: Array(#"{"user_id":"u"}"#.utf8))
        await server.stop()
        #expect(answer == Array(#"{"claims": {"sub": "u"}}"#.utf8))
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(
            request.target
                == "/2015-03-31/functions/arn%3Aaws%3Alambda%3Aeu-west-1%3A123456789012%3Afunction%3ATokenHook/invocations"
        )
        #expect(request.body == Array(#"{"user_id":"u"}"#.utf8))
        let authorization = try #require(request.header("authorization"))
        #expect(authorization.contains("/eu-west-1/lambda/aws4_request"), "\(authorization)")
        #expect(request.header("x-amz-security-token") == "token")
    }

    @Test func lambdasRefusalIsNamedByItsCode() async throws {
        let server = try await RecordingServer.start { _ in
            (404, #"{"Type": "User", "message": "Function not found: secret-name"}"#)
        }
        await #expect(throws: FunctionInvocationError.unreachable("Lambda Invoke answered 404 unknown")) {
            _ = try await Self.invoker(server.baseURL).invoke("TokenHook", payload: Array("{}".utf8))
        }
        await server.stop()
    }

    @Test func aFunctionErrorIsItsTypeNeverItsMessage() throws {
        let failed = OutboundResponse(
            status: 200, headers: [(name: "x-amz-function-error", value: "Unhandled")],
            body: Array(#"{"errorMessage": "claims were {\"email\": \"ada@example.com\"}"}"#.utf8))
        #expect(throws: FunctionInvocationError.functionFailed(type: "Unhandled")) {
            _ = try LambdaInvoker.answer(failed)
        }
        #expect(!"\(FunctionInvocationError.functionFailed(type: "Unhandled"))".contains("ada@example.com"))
        #expect(try LambdaInvoker.answer(OutboundResponse(status: 200, headers: [], body: [1])) == [1])
        #expect(
            LambdaInvoker.failure(.timedOut(host: "lambda.eu-west-1.amazonaws.com", milliseconds: 5000)) == .timedOut)
        #expect(LambdaInvoker.failure(.tooLarge(host: "h", limit: 1)) == .answerTooLarge)
        #expect(LambdaInvoker.path("Hook:$LATEST") == "/2015-03-31/functions/Hook%3A%24LATEST/invocations")
        #expect(LambdaInvoker.path("a b\u{01}é") == "/2015-03-31/functions/a%20b%01%C3%A9/invocations")
    }

    @Test func noRegionOrCredentialsIsNoCall() async throws {
        await #expect(throws: FunctionInvocationError.unreachable("no AWS_REGION or credentials")) {
            _ = try await LambdaInvoker(environment: [:]).invoke("TokenHook", payload: [])
        }
    }
}
