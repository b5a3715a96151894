import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging
import StoreCore
import SupabaseEdge

/// `POST /auth/v1/logout?scope=global|local|others` with the app's `apikey` and the access
/// token: ends every session of the user (`global`, the default), the token's own (`local`),
/// or all but it (`others`). 204, no body; a sign-out that ended a session is recorded in the
/// audit log after it.
struct SupabaseLogoutHandler: SupabaseHandler {
    let apps: AppRegistry
    /// The check of the bearer's token, with the public keys only.
    let tokens: AccessTokenVerifier
    let store: any KeyValueStore
    let audit: AuditLog

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: apps)
        let bearer = try await tokens.bearer(request.header("authorization"), app: app.id, store: store)
        let ended: Int
        switch request.queryParameters["scope"] ?? "global" {
        case "global": ended = try await RefreshTokens.endSessions(userID: bearer.userID, in: store)
        case "local":
            ended = try await RefreshTokens.endSessions(userID: bearer.userID, only: bearer.sessionID, in: store)
        case "others":
            ended = try await RefreshTokens.endSessions(userID: bearer.userID, except: bearer.sessionID, in: store)
        default: throw SupabaseError.validation("scope must be global, local or others")
        }
        // Recorded when a session ended: `others` with none left to end is no sign-out.
        if ended > 0 { await audit.record(.signOut, userID: bearer.userID, app: app.id) }
        context.logger.info("signed out", metadata: ["userId": .string(bearer.userID)])
        return HTTPResponse(statusCode: 204, headers: ["cache-control": "no-store"])
    }
}
