import AuthKit
import LambdaRuntime
import Logging

/// `DELETE /users/me`, behind the authorizer: deletes the signed-in user (the verified subject,
/// `sub`, of the authorizer's context) and its index items and ends all of its sessions; the
/// address can sign up again afterwards.
struct DeleteAccountHandler: LambdaHandler {
    let accounts: Accounts

    func handle(_ request: APIGatewayV2Request, context: LambdaContext) async throws -> APIGatewayV2Response {
        guard let userID = request.authorizerContext("sub") else {
            return .error(401, code: "unauthorized", message: "The request carries no signed-in user.")
        }
        do {
            try await accounts.delete(userID: userID)
            context.logger.info("account deleted", metadata: ["userId": .string(userID)])
            return .json(200, ["success": true])
        } catch let error as any ClientError {
            return .error(error.status, code: error.code, message: error.description)
        }
    }
}
