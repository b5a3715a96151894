import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging

/// `POST /auth/refresh` `{"refreshToken": "..."}`: a new access token, and the refresh token to
/// keep (rotated or not, per the settings).
struct RefreshHandler: HTTPHandler {
    let sessions: SessionService

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let token = try JSONRequestBody(request).string("refreshToken", maximumLength: 256)
        let session = try await sessions.refresh(token: token)
        context.logger.info("session refreshed", metadata: ["userId": .string(session.user.id)])
        return .json(200, session.json)
    }
}
