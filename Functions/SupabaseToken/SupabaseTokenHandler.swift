import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

/// `POST /auth/v1/token?grant_type=password` `{email, password}` and
/// `?grant_type=refresh_token` `{refresh_token}`, with the app's `apikey`: a session in
/// Supabase's shape. A password sign-in needs a confirmed address; a refresh rotates the token
/// with Gatehouse's reuse detection, whichever API the session began on.
struct SupabaseTokenHandler: SupabaseHandler {
    let accounts: PasswordAccounts

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: accounts.sessions.apps)
        let body = try JSONRequestBody.supabase(request)
        let (user, session): (User, SessionResponse)
        switch request.queryParameters["grant_type"] {
        case "password":
            (user, session) = try await accounts.signIn(
                email: body.string("email", maximumLength: 320),
                password: body.string("password", maximumLength: 1024), app: app, sourceIP: request.sourceIP)
        case "refresh_token":
            (user, session) = try await accounts.sessions.refreshed(
                token: body.string("refresh_token", maximumLength: 256))
        default:
            throw SupabaseError.validation("grant_type must be password or refresh_token")
        }
        context.logger.info("session started", metadata: ["userId": .string(user.id)])
        return .json(200, SupabaseJSON.session(session, user: user, lifetime: accounts.sessions.accessTokens.lifetime))
    }
}
