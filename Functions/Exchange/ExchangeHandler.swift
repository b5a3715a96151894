import AuthKit
import LambdaRuntime
import Logging

/// `POST /auth/exchange` `{"code": "..."}`: a single-use auth code for an access token, a
/// refresh token and the user.
struct ExchangeHandler: LambdaHandler {
    let sessions: SessionService

    func handle(_ request: APIGatewayV2Request, context: LambdaContext) async throws -> APIGatewayV2Response {
        do {
            let code = try JSONRequestBody(request).string("code", maximumLength: 256)
            let session = try await sessions.exchange(code: code)
            context.logger.info(
                "code exchanged",
                metadata: ["userId": .string(session.user.id), "isNewUser": "\(session.user.isNewUser)"])
            return .json(200, session.json)
        } catch let error as RequestBodyError {
            return .error(400, code: "invalid_request", message: error.description)
        } catch let error as any ClientError {
            context.logger.info("exchange refused", metadata: ["reason": .string(error.code)])
            return .error(error.status, code: error.code, message: error.description)
        }
    }
}
