import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime

/// `POST /auth/send-magic-link` `{email, app?, platform?, codeChallenge?}`, called by an app's client: mails a
/// sign-in link (for `DEFAULT_APP` when `app` is absent). The answer is `{"success": true}` whether or not the address has an account;
/// over a rate limit, 429 with `Retry-After` and nothing sent.
struct SendMagicLinkHandler: HTTPHandler {
    let links: MagicLinks
    let defaultApp: DefaultApp

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let body = try JSONRequestBody(request, requiringJSONContentType: true)
        try await links.send(
            email: body.optionalString("email", maximumLength: 320),
            app: defaultApp.resolve(body.optionalString("app", maximumLength: 64)),
            platform: body.optionalString("platform", maximumLength: 16), sourceIP: request.sourceIP ?? "unknown",
            codeChallenge: body.optionalString("codeChallenge", maximumLength: 64))
        return .json(200, ["success": true])
    }
}
