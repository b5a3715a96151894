import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

/// `GET /auth/v1/user` and `PUT /auth/v1/user` `{password?, data?, email?}` (`?redirect_to=`)
/// with the app's `apikey` and the access token: the user, after the changes for a `PUT` (a new
/// password ends the user's other sessions; a new address changes when its mailed link is used).
struct SupabaseUserHandler: SupabaseHandler {
    let accounts: PasswordAccounts

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: accounts.sessions.apps)
        let bearer = try await accounts.sessions.bearer(request.header("authorization"), app: app.id)
        guard request.method == "PUT" else {
            guard let user = try await accounts.sessions.users.user(id: bearer.userID) else {
                throw AccountError.userNotFound
            }
            return .json(200, SupabaseJSON.user(user))
        }
        let body = try JSONRequestBody.supabase(request)
        let changes = AccountChanges(
            password: try body.optionalString("password", maximumLength: 1024),
            metadata: try body.optionalObject("data"),
            email: try body.optionalString("email", maximumLength: 320))
        let user = try await accounts.update(changes, for: bearer, redirectTo: request.redirectTo)
        context.logger.info("user updated", metadata: ["userId": .string(user.id)])
        return .json(200, SupabaseJSON.user(user))
    }
}
