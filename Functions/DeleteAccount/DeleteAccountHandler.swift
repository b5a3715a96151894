import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging

/// `DELETE /users/me`, behind the authorizer: deletes the signed-in user (the verified subject,
/// `sub`, of the authorizer's context) and its index items and ends all of its sessions; the
/// address can sign up again afterwards. The answer says so: `{success, message}`.
struct DeleteAccountHandler: HTTPHandler {
    /// What the answer's `message` says happened.
    static let deleted = "The account has been deleted and all of its sessions have been signed out."

    let accounts: Accounts
    /// Gatehouse's own issuer (`ISSUER`): only its tokens' users are read here.
    let issuer: String

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let userID = try request.signedInUserID(issuer: issuer)
        try await accounts.delete(userID: userID)
        context.logger.info("account deleted", metadata: ["userId": .string(userID)])
        return .json(200, ["success": true, "message": .string(Self.deleted)])
    }
}
