import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging
import StoreCore
import SupabaseEdge

/// `POST /auth/v1/logout?scope=global|local|others` with the app's `apikey` and the access
/// token: ends every session of the user (`global`, the default), the token's own (`local`),
/// or all but it (`others`). 204, no body; the sign-out is recorded in the audit log after it.
struct SupabaseLogoutHandler: SupabaseHandler {
    let apps: AppRegistry
    /// The check of the bearer's token, with the public keys only.
    let tokens: AccessTokenVerifier
    let store: any KeyValueStore
    let audit: AuditLog

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: apps)
        let bearer = try await tokens.bearer(request.header("authorization"), app: app.id, store: store)
        switch request.queryParameters["scope"] ?? "global" {
        case "global": try await RefreshTokens.endSessions(userID: bearer.userID, in: store)
        case "local": try await RefreshTokens.endSessions(userID: bearer.userID, only: bearer.sessionID, in: store)
        case "others": try await RefreshTokens.endSessions(userID: bearer.userID, except: bearer.sessionID, in: store)
        default: throw SupabaseError.validation("scope must be global, local or others")
        }
        await audit.record(.signOut, userID: bearer.userID, app: app.id)
        context.logger.info("signed out", metadata: ["userId": .string(bearer.userID)])
        return HTTPResponse(statusCode: 204, headers: ["cache-control": "no-store"])
    }
}
