import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

/// `POST /auth/v1/token?grant_type=password` `{email, password}`,
/// `?grant_type=refresh_token` `{refresh_token}` and `?grant_type=pkce` `{auth_code,
/// code_verifier}`, with the app's `apikey`: a session in Supabase's shape. A password sign-in
/// needs a confirmed address; a refresh rotates the token with Gatehouse's reuse detection,
/// whichever API the session began on; a PKCE flow's code works once, with its verifier, for 5
/// minutes (`FlowCodes`); `?grant_type=id_token` `{provider: "apple", id_token, nonce?}` checks
/// Apple's token as `/auth/verify-apple` does (`AppleSignIn`, without a `user`: the token's
/// subject is the user) and signs its user in.
struct SupabaseTokenHandler: SupabaseHandler {
    let accounts: PasswordAccounts
    /// Nil when the function has no `APPLE_CLIENT_IDS`: Apple's ID tokens are refused.
    let apple: AppleSignIn?

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
        case "pkce":
            (user, session) = try await accounts.signIn(
                authCode: body.optionalString("auth_code", maximumLength: 128) ?? "",
                codeVerifier: body.optionalString("code_verifier", maximumLength: 128) ?? "", app: app,
                sourceIP: request.sourceIP)
        case "id_token":
            (user, session) = try await idToken(body, app: app)
        default:
            throw SupabaseError.validation("grant_type must be password, refresh_token, pkce or id_token")
        }
        context.logger.info("session started", metadata: ["userId": .string(user.id)])
        return .json(200, SupabaseJSON.session(session, user: user, lifetime: accounts.sessions.accessTokens.lifetime))
    }

    private func idToken(_ body: JSONRequestBody, app: App) async throws -> (User, SessionResponse) {
        guard try body.string("provider", maximumLength: 32) == "apple" else {
            throw SupabaseError(
                status: 400, code: "validation_failed", message: "provider must be apple (the OIDC providers: not yet)")
        }
        guard let apple else { throw SupabaseError.providerDisabled }
        return try await apple.signedIn(
            identityToken: body.string("id_token", maximumLength: 8192), user: nil,
            nonce: body.optionalString("nonce", maximumLength: 256), fullName: nil, app: app.id)
    }
}
