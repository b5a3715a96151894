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
/// subject is the user) and signs its user in; `{provider: "google", id_token, nonce?,
/// access_token?}` checks the configured OIDC provider's ID token as the OAuth callback does
/// (`OIDCSignIn`; `access_token` is ignored). `link_identity: true` (linking to the signed-in
/// user) is refused as Supabase refuses it when manual linking is off.
struct SupabaseTokenHandler: SupabaseHandler {
    /// The sessions it answers with, and the apps and users it reads.
    let sessions: SessionService
    let accounts: PasswordAccounts
    /// Nil when the function has no `APPLE_CLIENT_IDS`: Apple's ID tokens are refused.
    let apple: AppleSignIn?
    /// Nil when the function has no `OIDC_ISSUER`: the OIDC provider's ID tokens are refused.
    let oidc: OIDCSignIn?

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: sessions.apps)
        let body = try JSONRequestBody.supabase(request)
        let (user, session): (User, SessionResponse)
        switch request.queryParameters["grant_type"] {
        case "password":
            if try body.optionalString("email", maximumLength: 320) == nil,
                try body.optionalString("phone", maximumLength: 32) != nil
            {
                throw SupabaseError.phonePasswordsDisabled
            }
            (user, session) = try await accounts.signIn(
                email: body.string("email", maximumLength: 320),
                password: body.string("password", maximumLength: 1024), app: app, sourceIP: request.sourceIP)
        case "refresh_token":
            (user, session) = try await sessions.refreshed(
                token: body.string("refresh_token", maximumLength: 256))
        case "pkce":
            (user, session) = try await accounts.signIn(
                authCode: body.optionalString("auth_code", maximumLength: 128) ?? "",
                codeVerifier: body.optionalString("code_verifier", maximumLength: 128) ?? "", app: app,
                sourceIP: request.sourceIP)
        case "id_token":
            (user, session) = try await idToken(body, app: app)
        case "web3":
            throw SupabaseError.web3Disabled
        default:
            throw SupabaseError.validation("grant_type must be password, refresh_token, pkce or id_token")
        }
        context.logger.info("session started", metadata: ["userId": .string(user.id)])
        return .json(200, SupabaseJSON.session(session, user: user, lifetime: sessions.accessTokens.lifetime))
    }

    private func idToken(_ body: JSONRequestBody, app: App) async throws -> (User, SessionResponse) {
        // Linking to the bearer's user is not built: signing the token's user in instead would
        // hand the app a different user than it asked to link to.
        guard try !body.flag("link_identity") else { throw SupabaseError.manualLinkingDisabled }
        let provider = try body.string("provider", maximumLength: 32)
        let token = try body.string("id_token", maximumLength: 8192)
        let nonce = try body.optionalString("nonce", maximumLength: 256)
        switch provider {
        case "apple":
            guard let apple else { throw SupabaseError.providerDisabled }
            return try await apple.signedIn(identityToken: token, user: nil, nonce: nonce, fullName: nil, app: app.id)
        case "google":
            guard let oidc else { throw SupabaseError.providerDisabled }
            return try await oidc.signedIn(idToken: token, nonce: nonce, app: app.id)
        default:
            throw SupabaseError.validation("provider must be apple or google")
        }
    }
}
