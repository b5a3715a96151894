import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

/// Supabase's `/auth/v1/verify`: a link from a sign-up, recovery or address-change email, used.
/// - `POST` `{type, token_hash}` or `{type, email, token}` (the six-digit code of the same email)
///   with the app's `apikey`: the session (`type` `signup`, `email`, `recovery`, `email_change`;
///   `magiclink` and `email` also take the token of an `/otp` link).
/// - `GET ?token=…&type=…&redirect_to=…` (the link itself): a 303 to `redirect_to` (the app's,
///   or the address recorded when the link was sent) with the session in the URL fragment, or
///   `#error=access_denied&error_code=otp_expired&…` for a used or expired link. A `redirect_to`
///   that is not the app's is refused before the link is used.
struct SupabaseVerifyHandler: SupabaseHandler {
    let accounts: PasswordAccounts
    let magicLinks: MagicLinks

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        guard request.method == "GET" else { return try await verifyPosted(request, context: context) }
        let token = request.queryParameters["token"] ?? ""
        let kinds = try Self.kinds(request.queryParameters["type"])
        guard let target = try await accounts.redirect(for: token, requested: request.redirectTo) else {
            throw AccountError.linkExpired
        }
        let fragment: String
        do {
            let verified = try await accounts.verify(token: token, kinds: kinds)
            context.logger.info("link used", metadata: ["userId": .string(verified.user.id)])
            fragment = SupabaseJSON.fragment(
                verified.session, lifetime: accounts.sessions.accessTokens.lifetime, type: verified.kind.rawValue)
        } catch AccountError.linkExpired {
            fragment = FormEncoding.encode([
                ("error", "access_denied"), ("error_code", "otp_expired"),
                ("error_description", AccountError.linkExpired.description),
            ])
        }
        return HTTPResponse(
            statusCode: 303, headers: ["location": "\(target)#\(fragment)", "cache-control": "no-store"])
    }

    private func verifyPosted(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: accounts.sessions.apps)
        let body = try JSONRequestBody.supabase(request)
        let type = try body.string("type", maximumLength: 32)
        let kinds = try Self.kinds(type)
        let (user, session): (User, SessionResponse)
        if let token = try body.optionalString("token_hash", maximumLength: 128) {
            if ["magiclink", "email"].contains(type), try await accounts.links.peek(token) == nil {
                let (linked, app) = try await magicLinks.signIn(token: token)
                (user, session) = try await accounts.startSession(for: linked, app: app)
            } else {
                let verified = try await accounts.verify(token: token, kinds: kinds)
                (user, session) = (verified.user, verified.session)
            }
        } else if let email = try body.optionalString("email", maximumLength: 320),
            let code = try body.optionalString("token", maximumLength: 16)
        {
            let verified = try await accounts.verify(
                email: email, code: code, kinds: kinds, sourceIP: request.sourceIP, app: app.id)
            (user, session) = (verified.user, verified.session)
        } else {
            throw SupabaseError.validation("token_hash, or email and token, are required")
        }
        context.logger.info("link used", metadata: ["userId": .string(user.id)])
        return .json(200, SupabaseJSON.session(session, user: user, lifetime: accounts.sessions.accessTokens.lifetime))
    }

    /// The links a `type` may use.
    static func kinds(_ type: String?) throws(SupabaseError) -> Set<EmailTokens.Kind> {
        switch type {
        case "signup", "email", "magiclink": [.signup]
        case "recovery": [.recovery]
        case "email_change": [.emailChange]
        default: throw .validation("type must be signup, email, magiclink, recovery or email_change")
        }
    }
}
