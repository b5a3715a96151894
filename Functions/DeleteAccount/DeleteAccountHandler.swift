import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging

/// `DELETE /users/me`, behind the authorizer: deletes the signed-in user (the verified subject,
/// `sub`, of the authorizer's context) and its index items and ends all of its sessions; the
/// address can sign up again afterwards. Only from a session signed in within
/// `RECENT_SIGN_IN_SECONDS` (an hour by default), or with the JSON body `{"nonce": "123456"}`,
/// the nonce `/auth/v1/reauthenticate` mailed, as a password change asks: else 403
/// `reauthentication_required` (no nonce) or `invalid_code` (a wrong one), and the app signs the
/// user in again or asks for a nonce first. The answer says so: `{success, message}`.
struct DeleteAccountHandler: HTTPHandler {
    /// What the answer's `message` says happened.
    static let deleted = "The account has been deleted and all of its sessions have been signed out."

    let accounts: Accounts
    /// The check of a mailed reauthentication nonce.
    let nonces: ReauthenticationNonces
    /// Gatehouse's own issuer (`ISSUER`): only its tokens' users are read here.
    let issuer: String
    /// How recent the session's sign-in must be (`RECENT_SIGN_IN_SECONDS`), in seconds.
    let recentSignIn: Double

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let userID = try request.signedInUserID(issuer: issuer)
        let nonce = try Self.nonce(of: request)
        try await accounts.delete(
            userID: userID, fromSession: request.authorizerContext("sid"), tokenAAL: request.authorizerContext("aal"),
            recentWithin: recentSignIn, nonce: nonce,
            checkedBy: nonces, sourceIP: request.sourceIP)
        context.logger.info("account deleted", metadata: ["userId": .string(userID)])
        return .json(200, ["success": true, "message": .string(Self.deleted)])
    }

    /// The body's `nonce`, if the request has a body (a 400 naming the field when it is not a
    /// string of at most 6 characters).
    static func nonce(of request: HTTPRequest) throws -> String? {
        guard try !request.bodyBytes().isEmpty else { return nil }
        return try JSONRequestBody(request).optionalString("nonce", maximumLength: 6)
    }
}
