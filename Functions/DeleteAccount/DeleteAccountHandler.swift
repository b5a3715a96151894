import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging

/// `DELETE /users/me`, behind the authorizer: deletes the signed-in user (the verified subject,
/// `sub`, of the authorizer's context) and its index items and ends all of its sessions; the
/// address can sign up again afterwards. Only from a session signed in within
/// `RECENT_SIGN_IN_SECONDS` (an hour by default), as a password change asks: else 403
/// `reauthentication_required`, and the app signs the user in again first. The answer says so:
/// `{success, message}`.
struct DeleteAccountHandler: HTTPHandler {
    /// What the answer's `message` says happened.
    static let deleted = "The account has been deleted and all of its sessions have been signed out."

    let accounts: Accounts
    /// Gatehouse's own issuer (`ISSUER`): only its tokens' users are read here.
    let issuer: String
    /// How recent the session's sign-in must be (`RECENT_SIGN_IN_SECONDS`), in seconds.
    let recentSignIn: Double

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let userID = try request.signedInUserID(issuer: issuer)
        try await accounts.delete(
            userID: userID, fromSession: request.authorizerContext("sid"), recentWithin: recentSignIn)
        context.logger.info("account deleted", metadata: ["userId": .string(userID)])
        return .json(200, ["success": true, "message": .string(Self.deleted)])
    }
}
