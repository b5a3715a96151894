import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging

/// `/auth`, where a web app sends the browser to sign in.
///
/// `app` may be left out for `DEFAULT_APP`.
///
/// - `GET /auth?app=ID&provider=google|apple[&platform=web|mobile][&code_challenge=…]` starts
///   OAuth with PKCE at the OIDC provider (302, with the flow's cookies).
/// - `GET /auth?app=ID[&platform=…]` without `provider` is the hosted page: Apple, Google, or an
///   email for a magic link, posted back here (`POST /auth`), origin- and token-checked.
/// - `GET /auth/v1/authorize?provider=…&redirect_to=…&code_challenge=…&code_challenge_method=…
///   [&app=ID]` (Supabase's `signInWithOAuth` in the PKCE flow): the same OAuth flow, which the
///   callback ends at `redirect_to` (the app's) with `?code=` for `grant_type=pkce`;
///   `?link=<handle>`: the same flow for a link through the provider's pages, begun with what
///   the handle holds (`IdentityLinkFlow`).
///
/// What cannot go ahead (an unknown app or provider, a bad field, a forged post, a rate limit)
/// gets a small page with the reason and the status.
struct AuthorizeHandler: HTTPHandler {
    let flow: OAuthFlow
    let hosted: HostedSignIn
    let defaultApp: DefaultApp

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let query = request.queryParameters
        do {
            if request.method == "POST" {
                try await hosted.submit(
                    form: FormBody(request).fields, origin: request.header("origin"),
                    fetchSite: request.header("sec-fetch-site"), cookie: request.cookie,
                    sourceIP: request.sourceIP ?? "unknown")
                return HTMLPage.response(200, body: HostedPage.sent)
            }
            if request.path.hasSuffix("/v1/authorize"), let link = query["link"] {
                let (location, cookies) = try await flow.begin(link: link)
                return HTMLPage.redirect(location, cookies: cookies)
            }
            if request.path.hasSuffix("/v1/authorize") {
                let (location, cookies) = try await flow.begin(
                    app: defaultApp.resolve(query["app"]), provider: query["provider"],
                    redirectTo: query["redirect_to"],
                    challenge: query["code_challenge"], method: query["code_challenge_method"])
                return HTMLPage.redirect(location, cookies: cookies)
            }
            guard query["provider"] != nil else {
                // The page's methods mint codes bound to no challenge: one given is refused by
                // name, never ignored (an app would believe its codes bound).
                guard query["code_challenge"] == nil else {
                    throw SignInError.invalidField(
                        "code_challenge", "is not carried by the hosted page; begin with provider=google or apple")
                }
                let page = try await hosted.page(app: defaultApp.resolve(query["app"]), platform: query["platform"])
                return HostedPage.signInResponse(page, callback: try page.platform.callback(of: page.app))
            }
            let (location, cookies) = try await flow.begin(
                app: defaultApp.resolve(query["app"]), provider: query["provider"], platform: query["platform"],
                clientChallenge: query["code_challenge"])
            return HTMLPage.redirect(location, cookies: cookies)
        } catch let error as SignInError {
            context.logger.info("sign-in refused", metadata: ["reason": .string(error.code)])
            return HostedPage.refused(error)
        }
    }
}
