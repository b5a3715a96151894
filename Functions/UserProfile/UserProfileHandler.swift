import AuthKit
import LambdaRuntime

/// `GET /users/me`, behind the authorizer: the signed-in user, from the verified subject
/// (`sub`) the authorizer put in the request context.
struct UserProfileHandler: LambdaHandler {
    let accounts: Accounts

    func handle(_ request: APIGatewayV2Request, context: LambdaContext) async throws -> APIGatewayV2Response {
        guard let userID = request.authorizerContext("sub") else {
            return .error(401, code: "unauthorized", message: "The request carries no signed-in user.")
        }
        do {
            return .json(200, try await accounts.profile(userID: userID).json)
        } catch let error as any ClientError {
            return .error(error.status, code: error.code, message: error.description)
        }
    }
}
