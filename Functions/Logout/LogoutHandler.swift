import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging

/// `POST /auth/logout` `{"refreshToken": "...", "scope": "local" | "global"}`: ends the token's
/// session (`local`, the default) or every session of its user (`global`). Always
/// `{"success": true}` for a well-formed request, known token or not: no oracle. It signs
/// nothing, so it holds the refresh tokens alone, not the signing keys. A sign-out that ended
/// a session is recorded in the audit log, after the answer.
struct LogoutHandler: HTTPHandler {
    let refreshTokens: RefreshTokens
    let audit: AuditLog

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let body = try JSONRequestBody(request)
        let token = try body.string("refreshToken", maximumLength: 256)
        let scope = try body.optionalString("scope") ?? "local"
        guard scope == "local" || scope == "global" else {
            throw RequestBodyError.field("scope", "must be \"local\" or \"global\"")
        }
        if let userID = try await refreshTokens.logout(token, everySession: scope == "global") {
            // The refresh token names no app: the event has none.
            await audit.record(.signOut, userID: userID, app: nil)
        }
        context.logger.info("logout", metadata: ["scope": .string(scope)])
        return .json(200, ["success": true])
    }
}
