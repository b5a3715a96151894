import AuthKit
import LambdaRuntime
import Logging

/// `POST /api/v1/auth/verify` `{"app", "code"}`, called by an app's backend with an S2S
/// assertion: the user an auth code stands for, for backends that mint their own tokens.
struct VerifyCodeHandler: LambdaHandler {
    let verification: CodeVerification

    func handle(_ request: APIGatewayV2Request, context: LambdaContext) async throws -> APIGatewayV2Response {
        do {
            // The assertion first, so an unauthenticated caller learns nothing of the body rules.
            let assertion = try await verification.assertions.verify(
                authorization: request.headers["authorization"],
                contentSHA256: request.headers["x-amz-content-sha256"], body: try request.bodyBytes())
            let body = try JSONRequestBody(request)
            let app = try body.string("app", maximumLength: 64)
            let code = try body.string("code", maximumLength: 256)
            let result = try await verification.verify(code: code, app: app, assertion: assertion)
            context.logger.info(
                "code verified", metadata: ["app": .string(app), "userId": .string(result.userID)])
            return .json(200, result.json)
        } catch let error as RequestBodyError {
            return .error(400, code: "invalid_request", message: error.description)
        } catch let error as any ClientError {
            context.logger.info("verify refused", metadata: ["reason": .string(error.code)])
            return .error(error.status, code: error.code, message: error.description)
        }
    }
}
