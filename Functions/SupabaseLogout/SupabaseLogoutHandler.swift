import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

/// `POST /auth/v1/logout?scope=global|local|others` with the app's `apikey` and the access
/// token: ends every session of the user (`global`, the default), the token's own (`local`),
/// or all but it (`others`). 204, no body.
struct SupabaseLogoutHandler: SupabaseHandler {
    let accounts: PasswordAccounts

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: accounts.sessions.apps)
        let bearer = try await accounts.sessions.bearer(request.header("authorization"), app: app.id)
        let sessions = accounts.sessions.refreshTokens
        switch request.queryParameters["scope"] ?? "global" {
        case "global": try await sessions.endSessions(userID: bearer.userID)
        case "local": try await sessions.endSessions(userID: bearer.userID, only: bearer.sessionID)
        case "others": try await sessions.endSessions(userID: bearer.userID, except: bearer.sessionID)
        default: throw SupabaseError.validation("scope must be global, local or others")
        }
        context.logger.info("signed out", metadata: ["userId": .string(bearer.userID)])
        return HTTPResponse(statusCode: 204, headers: ["cache-control": "no-store"])
    }
}
