import AuthKit
import LambdaRuntime
import Logging

/// `POST /auth/refresh` `{"refreshToken": "..."}`: a new access token, and the refresh token to
/// keep (rotated or not, per the settings).
struct RefreshHandler: LambdaHandler {
    let sessions: SessionService

    func handle(_ request: APIGatewayV2Request, context: LambdaContext) async throws -> APIGatewayV2Response {
        do {
            let token = try JSONRequestBody(request).string("refreshToken", maximumLength: 256)
            let session = try await sessions.refresh(token: token)
            context.logger.info("session refreshed", metadata: ["userId": .string(session.user.id)])
            return .json(200, session.json)
        } catch let error as RequestBodyError {
            return .error(400, code: "invalid_request", message: error.description)
        } catch let error as any ClientError {
            context.logger.info("refresh refused", metadata: ["reason": .string(error.code)])
            return .error(error.status, code: error.code, message: error.description)
        }
    }
}
