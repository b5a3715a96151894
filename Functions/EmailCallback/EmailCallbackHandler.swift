import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging

/// `/auth/email-callback?token=…`, where a magic link leads.
///
/// - `GET` and `HEAD` use nothing, whoever fetches the link (a person, a mail scanner, a
///   preview, a prefetch): they answer a page whose button POSTs the token. No user agent is
///   trusted to tell a scanner from a person.
/// - `POST` (form field `token`) consumes the link and redirects (302) to the app with a code,
///   or with `error=link_expired` for a used or expired link; an unknown token gets a small 400
///   page. Only the page's own button may post: another site's form (login CSRF, the attacker's
///   own link pressed in the victim's browser) gets a 403 page, the link unused (`BrowserPost`).
///
/// - For a user with a verified TOTP factor, the button's `POST` answers a page asking for the
///   authenticator's code instead (`SecondFactorSignIn`), with the step's cookie; that page's
///   form POSTs `pending` and `code` here, and the right code redirects to the app with a code
///   whose session starts at `aal2`. A wrong one shows the page again (422), a step that ended
///   (5 minutes, 3 codes, another browser) a 400 page, too many wrong codes a 429 page.
///
/// Every answer carries `Cache-Control: no-store` and `Referrer-Policy: no-referrer`.
struct EmailCallbackHandler: HTTPHandler {
    let links: MagicLinks
    let secondFactor: SecondFactorSignIn
    /// `scheme://host[:port]` of the API (`ISSUER`): the `Origin` of its pages' posts.
    let apiOrigin: String

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        switch request.method {
        case "POST":
            if let refusal = HTMLPage.crossSiteRefusal(of: request, apiOrigin: apiOrigin) {
                context.logger.info("magic link refused", metadata: ["reason": "cross_site_post"])
                return refusal
            }
            let form = try FormBody(request)
            if let handle = form["pending"] {
                return try await secondStep(handle, form: form, request: request, context: context)
            }
            return try await complete(form["token"], context: context)
        case "HEAD":
            return HTMLPage.response(200, body: nil)
        default:
            guard let token = request.queryParameters["token"], !token.isEmpty else {
                return HTMLPage.response(400, body: CallbackPage.unknownLink)
            }
            let target = try await links.callback(for: token)
            return HTMLPage.response(
                200, body: CallbackPage.confirm(token: token), formTargets: target.map { [$0] } ?? [])
        }
    }

    private func complete(_ token: String?, context: LambdaContext) async throws -> HTTPResponse {
        let completion: MagicLinks.Completion =
            if let token { try await links.complete(token: token, secondFactor: secondFactor) } else { .unknown }
        switch completion {
        case .signedIn(let redirect):
            context.logger.info("magic link used")
            return HTMLPage.redirect(redirect)
        case .expired(let redirect):
            context.logger.info("magic link refused", metadata: ["reason": "link_expired"])
            return HTMLPage.redirect(redirect)
        case .unknown:
            context.logger.info("magic link refused", metadata: ["reason": "unknown_link"])
            return HTMLPage.response(400, body: CallbackPage.unknownLink)
        case .secondFactor(let step):
            context.logger.info("magic link used", metadata: ["next": "second_factor"])
            return SecondFactorPage.response(step, status: 200)
        }
    }

    /// The code page's post: the code checked for the step its `pending` handle names.
    private func secondStep(
        _ handle: String, form: FormBody, request: HTTPRequest, context: LambdaContext
    ) async throws -> HTTPResponse {
        do {
            switch try await secondFactor.finish(
                handle: handle, code: form["code"], factorID: form["factor"],
                cookie: request.cookie(secondFactor.cookieName), sourceIP: request.sourceIP)
            {
            case .signedIn(let redirect, let cleared):
                context.logger.info("second factor verified")
                return HTMLPage.redirect(redirect, cookies: [cleared])
            case .wrongCode(let step):
                context.logger.info("second factor refused", metadata: ["reason": "wrong_code"])
                return SecondFactorPage.response(step, status: 422)
            case .ended:
                context.logger.info("second factor refused", metadata: ["reason": "step_ended"])
                return HTMLPage.response(400, body: CallbackPage.stepEnded)
            }
        } catch SignInError.rateLimited(let seconds) {
            context.logger.info("second factor refused", metadata: ["reason": "rate_limited"])
            var answer = HTMLPage.response(429, body: CallbackPage.tooManyCodes)
            answer.headers["retry-after"] = String(seconds)
            return answer
        }
    }
}
