import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging

/// `GET /auth/callback?code=…&state=…` (or `?error=…`), where the OIDC provider sends the
/// browser back: the flow finished (`OAuthFlow.complete`), its cookies cleared, and a 302 to the
/// app with `?code=` or `?error=oauth_failed`. A callback without its flow (no cookie, another
/// `state`) is a 400 page, and nothing else happens. The reason of a failure is logged; no
/// token or code is. A hosted sign-in's user with a verified TOTP factor gets the page asking
/// for its code instead (`SecondFactorSignIn`; nothing is signed in yet), whose form posts to
/// `EmailCallback`.
struct OAuthCallbackHandler: HTTPHandler {
    let flow: OAuthFlow
    let secondFactor: SecondFactorSignIn
    let idTokens: ProviderTokenVerifier
    let tokens: HTTPTokenEndpoint

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let query = request.queryParameters
        let completion = try await flow.complete(
            code: query["code"], state: query["state"], providerError: query["error"], cookie: request.cookie,
            tokens: tokens, idTokens: idTokens, secondFactor: secondFactor)
        switch completion {
        case .signedIn(let redirect):
            context.logger.info("oauth sign-in")
            return HTMLPage.redirect(redirect, cookies: flow.clearedCookies)
        case .failed(let redirect, let reason):
            context.logger.warning("oauth sign-in failed", metadata: ["reason": .string(reason)])
            return HTMLPage.redirect(redirect, cookies: flow.clearedCookies)
        case .secondFactor(let step):
            context.logger.info("oauth sign-in", metadata: ["next": "second_factor"])
            var answer = SecondFactorPage.response(step, status: 200)
            answer.cookies += flow.clearedCookies
            return answer
        case .refused(let reason):
            context.logger.info("oauth callback refused", metadata: ["reason": .string(reason)])
            let body = "<p>This sign-in could not be finished here. Start again from the app.</p>"
            return HTMLPage.response(400, body: HTMLPage.page(title: "Sign-in not finished", body: body))
        }
    }
}
