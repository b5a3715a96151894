import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging

/// `POST /api/v1/auth/verify` `{"app", "code", "codeVerifier"?}`, called by an app's backend with an S2S
/// assertion: the user an auth code stands for, for backends that mint their own tokens.
struct VerifyCodeHandler: HTTPHandler {
    let verification: CodeVerification

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        // The assertion first, so an unauthenticated caller learns nothing of the body rules.
        let bytes = try request.bodyBytes()
        let assertion = try await verification.assertions.verify(
            authorization: request.header("authorization"), contentSHA256: request.header("x-amz-content-sha256"),
            body: bytes)
        let body = try JSONRequestBody(bytes: bytes)
        let app = try body.string("app", maximumLength: 64)
        let code = try body.string("code", maximumLength: 256)
        let verifier = try body.optionalString("codeVerifier", maximumLength: 128)
        let result = try await verification.verify(code: code, app: app, codeVerifier: verifier, assertion: assertion)
        context.logger.info("code verified", metadata: ["app": .string(app), "userId": .string(result.userID)])
        return .json(200, result.json)
    }
}
