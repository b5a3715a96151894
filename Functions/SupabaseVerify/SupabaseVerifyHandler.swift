import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

/// Supabase's `/auth/v1/verify`: a link from a sign-up, recovery or address-change email.
/// - `GET` and `HEAD ?token=…&type=…&redirect_to=…` (the link itself) use nothing: they answer
///   a page whose button POSTs the link back, whoever fetches it (`VerifyPage`). The link may
///   also be an `/otp` or `/magiclink` email's sent with a `redirect_to` (`MagicLinks`).
/// - That form's `POST` (form-encoded, without `apikey`): the link used, then a 303 to `redirect_to` (the app's, or the address
///   recorded when the link was sent) with the session in the URL fragment; for a link sent
///   with a PKCE challenge, `?code=` instead (for `grant_type=pkce`, never a token in the URL);
///   for an address change, a message and no session; `#error=access_denied&error_code=otp_expired&…` for a
///   used or expired link. A `redirect_to` that is not the app's is refused before the link is
///   used.
/// - A JSON `POST` `{type, token_hash}` or `{type, email, token}` (the six-digit code of the
///   same email) with the app's `apikey`: the session (`type` `signup`, `email`, `recovery`;
///   `magiclink` and `email` also take the token of an `/otp` link, or its code); for `email_change`,
///   Supabase's message while the other address has still to confirm, then the changed user.
/// - A JSON `POST` `{type: "sms", phone, token}`: the texted code (`/otp {phone}`, or a number's
///   password sign-up) checked as `/auth/otp/verify` checks it, then the session of the number's
///   user; `{type: "phone_change", phone, token}`: the code texted to a user's new number
///   (`PUT /user {phone}`), then the user moved there and its session.
struct SupabaseVerifyHandler: SupabaseHandler {
    /// The sessions it answers with, and the apps and users it reads.
    let sessions: SessionService
    let accounts: PasswordAccounts
    let magicLinks: MagicLinks
    /// `scheme://host[:port]` of the API (`ISSUER`): the `Origin` of its link pages' posts.
    let apiOrigin: String
    var links: EmailedLinks { EmailedLinks(accounts: accounts, magicLinks: magicLinks) }
    /// Nil when the function has no OTP secret: phone sign-in is off.
    let phones: PhoneSignIn?

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        switch request.method {
        case "GET", "HEAD":
            return try await page(request)
        case _ where Self.isPageForm(request):
            // The page's own button only: another site's form must not press a link (its own)
            // in this browser. Refused before the link is used.
            if let refusal = HTMLPage.crossSiteRefusal(of: request, apiOrigin: apiOrigin) {
                context.logger.info("link refused", metadata: ["reason": "cross_site_post"])
                return refusal
            }
            return try await verifyForm(FormBody(request), sourceIP: request.sourceIP, context: context)
        default:
            return try await verifyPosted(request, context: context)
        }
    }

    /// The link page's own POST: a form, without the `apikey` every API call carries (a client
    /// such as curl may send its JSON as a form; the key tells it apart).
    static func isPageForm(_ request: HTTPRequest) -> Bool {
        request.header("apikey") == nil
            && request.header("content-type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
    }

    private func page(_ request: HTTPRequest) async throws -> HTTPResponse {
        let token = request.queryParameters["token"] ?? ""
        let type = request.queryParameters["type"] ?? ""
        _ = try Self.kinds(type)
        guard let target = try await links.redirect(for: token, requested: request.redirectTo) else {
            return HTMLPage.response(400, body: request.method == "HEAD" ? nil : VerifyPage.unknownLink)
        }
        let body = VerifyPage.confirm(
            token: token, type: type, redirectTo: target,
            asksForPassword: try await accounts.asksForSignUpPassword(token: token))
        return HTMLPage.response(200, body: request.method == "HEAD" ? nil : body, formTargets: [target])
    }

    private func verifyForm(
        _ form: FormBody, sourceIP: String?, context: LambdaContext
    ) async throws -> HTTPResponse {
        let token = form["token"] ?? ""
        let type = form["type"] ?? ""
        _ = try Self.kinds(type)
        let requested = form["redirect_to"].flatMap { $0.isEmpty ? nil : $0 }
        guard let target = try await links.redirect(for: token, requested: requested) else {
            return HTMLPage.response(400, body: VerifyPage.unknownLink)
        }
        let outcome: (code: String?, fragment: String)
        do {
            outcome = try await follow(
                token, type: type, password: form["password"], sourceIP: sourceIP, context: context)
        } catch AccountError.invalidCredentials {
            // The password given was not the sign-up's: the link is unused, the page again.
            return Self.again(
                token, type, target, 400, "That is not the password chosen at sign-up. Try again, or leave it empty.")
        } catch SignInError.locked, SignInError.rateLimited {
            return Self.again(
                token, type, target, 429, "Too many tries. Wait 15 minutes and try again, or leave it empty.")
        } catch VerifyFormError.passwordTooLong {
            return Self.again(token, type, target, 400, "That password is too long to be the one chosen at sign-up.")
        } catch AccountError.linkExpired {
            outcome = (
                nil,
                FormEncoding.encode([
                    ("error", "access_denied"), ("error_code", "otp_expired"),
                    ("error_description", SupabaseError.linkExpiredMessage),
                ])
            )
        }
        if let code = outcome.code { return Self.redirect(to: target, code: code) }
        return HTTPResponse(
            statusCode: 303,
            headers: ["location": "\(Self.withoutFragment(target))#\(outcome.fragment)", "cache-control": "no-store"])
    }

    /// Uses the link of `token` for its button: a PKCE flow's code (no session), or the
    /// fragment to return with (the session, or an address change's progress).
    private func follow(
        _ token: String, type: String, password: String?, sourceIP: String?, context: LambdaContext
    ) async throws -> (code: String?, fragment: String) {
        let kinds = try Self.kinds(type)
        if let password, password.utf8.count > 1024 { throw VerifyFormError.passwordTooLong }
        let verified =
            if let password, !password.isEmpty {
                try await links.follow(
                    token, kinds: kinds, signInLinks: Self.takesSignInLinks(type), signUpPassword: password,
                    sourceIP: sourceIP)
            } else {
                try await links.follow(token, kinds: kinds, signInLinks: Self.takesSignInLinks(type))
            }
        context.logger.info("link used", metadata: ["kind": .string(Self.answeredType(verified))])
        if let code = verified.authCode { return (code, "") }
        return (nil, Self.fragment(verified, lifetime: sessions.accessTokens.lifetime))
    }

    /// The link's page again, with the password field and why the press did not go through;
    /// the link is unused.
    static func again(
        _ token: String, _ type: String, _ target: String, _ status: Int, _ problem: String
    ) -> HTTPResponse {
        let page = VerifyPage.confirm(
            token: token, type: type, redirectTo: target, asksForPassword: true, problem: problem)
        return HTMLPage.response(status, body: page, formTargets: [target])
    }

    /// `target` without its own fragment (a hash-router app's `#/callback`): the session's
    /// fragment replaces it, as supabase/auth's redirect does.
    static func withoutFragment(_ target: String) -> Substring {
        target.firstIndex(of: "#").map { target[..<$0] } ?? target[...]
    }

    /// A PKCE flow's redirect: `target` with `code` in its query.
    static func redirect(to target: String, code: String) -> HTTPResponse {
        HTTPResponse(
            statusCode: 303,
            headers: ["location": AppRedirect.adding([("code", code)], to: target), "cache-control": "no-store"])
    }

    /// The fragment a used link returns with: the session, or an address change's progress.
    static func fragment(_ verified: PasswordAccounts.Verified, lifetime: Double) -> String {
        if let session = verified.session {
            return SupabaseJSON.fragment(session, lifetime: lifetime, type: answeredType(verified))
        }
        return FormEncoding.encode([("message", message(verified.change)), ("type", verified.kind.rawValue)])
    }

    /// Supabase's words for an address change's progress.
    static func message(_ progress: EmailChanges.Progress?) -> String {
        guard case .changed = progress else {
            return "Confirmation link accepted. Please proceed to confirm link sent to the other email"
        }
        return "Email change confirmed"
    }

    private func verifyPosted(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: sessions.apps)
        let body = try JSONRequestBody.supabase(request)
        let type = try body.string("type", maximumLength: 32)
        if type == "sms" { return try await verifyPhone(body, app: app.id, sourceIP: request.sourceIP) }
        if type == "phone_change" { return try await verifyPhoneChange(body, app: app.id, sourceIP: request.sourceIP) }
        let verified = try await verify(body, type: type, sourceIP: request.sourceIP, app: app.id)
        context.logger.info("link used", metadata: ["kind": .string(Self.answeredType(verified))])
        guard let user = verified.user, let session = verified.session else {
            if case .changed(let user) = verified.change { return .json(200, SupabaseJSON.user(user)) }
            return .json(200, ["msg": .string(Self.message(verified.change)), "code": "200"])
        }
        return try await sessions.supabaseAnswer(session, user: user)
    }

    private func verifyPhone(_ body: JSONRequestBody, app: String, sourceIP: String?) async throws -> HTTPResponse {
        guard let phones else { throw SupabaseError.phoneDisabled }
        let (user, _, session) = try await phones.signIn(
            body.phone(),
            code: body.string("token", maximumLength: 16), name: nil, app: app, sourceIP: sourceIP)
        return try await sessions.supabaseAnswer(session, user: user)
    }

    /// `{type: "phone_change", phone, token}`: the code texted to the new number moves the user
    /// who asked for it there (`PhoneChanges.confirm`), then a session of that user.
    private func verifyPhoneChange(
        _ body: JSONRequestBody, app: String, sourceIP: String?
    ) async throws -> HTTPResponse {
        guard let changes = accounts.phoneChanges else { throw SupabaseError.phoneDisabled }
        let changed = try await changes.confirm(
            body.phone(), code: body.string("token", maximumLength: 16), sourceIP: sourceIP, app: app)
        let (user, session) = try await accounts.startSession(for: changed, app: app, provider: "phone")
        return try await sessions.supabaseAnswer(session, user: user)
    }

    private func verify(
        _ body: JSONRequestBody, type: String, sourceIP: String?, app: String
    ) async throws -> PasswordAccounts.Verified {
        let kinds = try Self.kinds(type)
        if let token = try body.optionalString("token_hash", maximumLength: 128) {
            return try await links.verify(
                token, kinds: kinds, signInLinks: Self.takesSignInLinks(type),
                codeVerifier: body.optionalString("code_verifier", maximumLength: 128))
        }
        guard let email = try body.optionalString("email", maximumLength: 320),
            let code = try body.optionalString("token", maximumLength: 16)
        else { throw SupabaseError.validation("token_hash, or email and token, are required") }
        // An invitation's code confirms the address for the invitee: a sign-up's password, if
        // one was left, is not theirs to keep.
        return try await links.verify(
            email: email, code: code, kinds: kinds, signInLinks: Self.takesSignInLinks(type), sourceIP: sourceIP,
            app: app, keepsSignUpPassword: type != "invite")
    }

    /// Whether a `type` may use a sign-in link (`/otp`'s and `/magiclink`'s), as Supabase's
    /// `magiclink` and `email` do.
    static func takesSignInLinks(_ type: String) -> Bool { type == "magiclink" || type == "email" }

    /// The `type` a used link is answered with.
    static func answeredType(_ verified: PasswordAccounts.Verified) -> String {
        verified.isSignInLink ? "magiclink" : verified.kind.rawValue
    }

    /// The account links a `type` may use.
    static func kinds(_ type: String?) throws(SupabaseError) -> Set<EmailTokens.Kind> {
        switch type {
        // An invitation's link (the admin API's) is a sign-up's confirmation.
        case "signup", "email", "magiclink", "invite": [.signup]
        case "recovery": [.recovery]
        case "email_change": [.emailChange]
        default: throw .validation("type must be signup, invite, email, magiclink, recovery or email_change")
        }
    }
}
