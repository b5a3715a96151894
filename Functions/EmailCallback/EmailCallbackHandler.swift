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
/// Every answer carries `Cache-Control: no-store` and `Referrer-Policy: no-referrer`.
struct EmailCallbackHandler: HTTPHandler {
    let links: MagicLinks
    /// `scheme://host[:port]` of the API (`ISSUER`): the `Origin` of its pages' posts.
    let apiOrigin: String

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        switch request.method {
        case "POST":
            if let refusal = HTMLPage.crossSiteRefusal(of: request, apiOrigin: apiOrigin) {
                context.logger.info("magic link refused", metadata: ["reason": "cross_site_post"])
                return refusal
            }
            return try await complete(FormBody(request)["token"], context: context)
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
            if let token { try await links.complete(token: token) } else { .unknown }
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
        }
    }
}
