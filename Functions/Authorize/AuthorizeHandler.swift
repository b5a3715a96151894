import AuthKit
import HTTPEdge
import LambdaRuntime

/// `GET /auth?app=ID&provider=google|apple[&platform=web|mobile][&code_challenge=…]`: starts
/// OAuth with PKCE at the OIDC provider (302, with the flow's cookies). A request the flow
/// cannot start (an unknown app or provider, a bad challenge) gets a 400 page naming what is
/// wrong. (The hosted page, for a request without `provider`, is not built yet.)
struct AuthorizeHandler: HTTPHandler {
    let flow: OAuthFlow

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let query = request.queryParameters
        do {
            let (location, cookies) = try await flow.begin(
                app: query["app"], provider: query["provider"], platform: query["platform"],
                clientChallenge: query["code_challenge"])
            return HTMLPage.redirect(location, cookies: cookies)
        } catch let error as SignInError {
            let body = "<p>This sign-in cannot start: \(HTMLPage.escaped(error.description))</p>"
            return HTMLPage.response(400, body: HTMLPage.page(title: "Sign-in not possible", body: body))
        }
    }
}
