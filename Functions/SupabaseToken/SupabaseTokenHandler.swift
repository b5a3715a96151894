import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

/// `POST /auth/v1/token?grant_type=password` `{email, password}` or `{phone, password}`,
/// `?grant_type=refresh_token` `{refresh_token}` and `?grant_type=pkce` `{auth_code,
/// code_verifier}`, with the app's `apikey`: a session in Supabase's shape. A password sign-in
/// needs a confirmed address; a refresh rotates the token with Gatehouse's reuse detection,
/// whichever API the session began on; a PKCE flow's code works once, with its verifier, for 5
/// minutes (`FlowCodes`); `?grant_type=id_token` `{provider: "apple", id_token, nonce?}` checks
/// Apple's token as `/auth/verify-apple` does (`AppleSignIn`, without a `user`: the token's
/// subject is the user) and signs its user in; `{provider: "google", id_token, nonce?,
/// access_token?}` checks the configured OIDC provider's ID token as the OAuth callback does
/// (`OIDCSignIn`; `access_token` is ignored). With `link_identity: true` and the user's access
/// token, the token's identity is linked to that user instead, and a new session of it answered.
/// `GET /auth/v1/implicit`: the implicit flow's return from `/authorize` (`+Implicit`).
struct SupabaseTokenHandler: SupabaseHandler {
    /// The sessions it answers with, and the apps and users it reads.
    let sessions: SessionService
    let accounts: PasswordAccounts
    /// Nil when the function has no `APPLE_CLIENT_IDS`: Apple's ID tokens are refused.
    let apple: AppleSignIn?
    /// Nil when the function has no `OIDC_ISSUER`: the OIDC provider's ID tokens are refused.
    let oidc: OIDCSignIn?
    /// The API's public base URL (`ISSUER`): the implicit flow's cookie is named for it.
    let issuer: String

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        // A browser's navigation, without an `apikey`: the implicit flow's return.
        if request.method == "GET" { return try await implicitReturn(request, context: context) }
        let app = try await request.supabaseApp(in: sessions.apps)
        let body = try JSONRequestBody.supabase(request)
        let (user, session): (User, SessionResponse)
        switch request.queryParameters["grant_type"] {
        case "password":
            (user, session) = try await passwordSignIn(body, app: app, sourceIP: request.sourceIP)
        case "refresh_token":
            (user, session) = try await sessions.refreshed(
                token: body.string("refresh_token", maximumLength: 256))
        case "pkce":
            (user, session) = try await accounts.signIn(
                authCode: body.optionalString("auth_code", maximumLength: 128) ?? "",
                codeVerifier: body.optionalString("code_verifier", maximumLength: 128) ?? "", app: app,
                sourceIP: request.sourceIP)
        case "id_token":
            (user, session) = try await idToken(
                body, app: app, authorization: request.header("authorization"), sourceIP: request.sourceIP)
        case "web3":
            throw SupabaseError.web3Disabled
        default:
            throw SupabaseError.validation("grant_type must be password, refresh_token, pkce or id_token")
        }
        context.logger.info("session started", metadata: ["userId": .string(user.id)])
        return try await sessions.supabaseAnswer(session, user: user)
    }

    /// `{email, password}`, or `{phone, password}` (a number's password sign-up, confirmed).
    private func passwordSignIn(
        _ body: JSONRequestBody, app: App, sourceIP: String?
    ) async throws -> (User, SessionResponse) {
        let password = try body.string("password", maximumLength: 1024)
        if try body.optionalString("email", maximumLength: 320) == nil,
            let phone = try body.optionalString("phone", maximumLength: 32)
        {
            let international = phone.hasPrefix("+") ? phone : "+" + phone
            return try await accounts.signIn(phone: international, password: password, app: app, sourceIP: sourceIP)
        }
        return try await accounts.signIn(
            email: body.string("email", maximumLength: 320), password: password, app: app, sourceIP: sourceIP)
    }

    private func idToken(
        _ body: JSONRequestBody, app: App, authorization: String?, sourceIP: String?
    ) async throws -> (User, SessionResponse) {
        if try body.flag("link_identity") {
            return try await link(body, app: app, authorization: authorization, sourceIP: sourceIP)
        }
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

    /// `link_identity: true` (`linkIdentityWithIdToken`): the token's identity linked to the
    /// bearer's user, never signing in the token's own user (`IdentityLinks`: a recent sign-in,
    /// else `reauthentication_needed`; `identity_already_exists` when another user has it), then
    /// a new session of that user.
    private func link(
        _ body: JSONRequestBody, app: App, authorization: String?, sourceIP: String?
    ) async throws -> (User, SessionResponse) {
        let bearer = try await sessions.bearer(authorization, app: app.id)
        let provider = try body.string("provider", maximumLength: 32)
        let token = try body.string("id_token", maximumLength: 8192)
        let nonce = try body.optionalString("nonce", maximumLength: 256)
        let links = IdentityLinks(sessions: sessions, reauthentication: accounts.reauthentication)
        return try await links.link(for: bearer, app: app.id, provider: provider, sourceIP: sourceIP) {
            switch provider {
            case "apple":
                guard let apple else { throw SupabaseError.providerDisabled }
                return try await apple.identity(identityToken: token, nonce: nonce, app: app.id)
            case "google":
                guard let oidc else { throw SupabaseError.providerDisabled }
                return try await oidc.identity(idToken: token, nonce: nonce, app: app.id)
            default:
                throw SupabaseError.validation("provider must be apple or google")
            }
        }
    }
}
