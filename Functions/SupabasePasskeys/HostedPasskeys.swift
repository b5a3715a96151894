import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import PasskeyKit

/// The hosted sign-in page's passkey (the page is `Authorize`'s; its one script calls these):
/// - `POST /auth/passkey/options` `{"app": ID}`: `{challenge_id, options, expires_at}`, a
///   username-less sign-in's W3C request options for `navigator.credentials.get` (a button's,
///   or the email field's autofill, conditional mediation), under the per-source limit;
/// - `POST /auth/passkey`, the page's form (`app`, `platform`, `csrf`, `challenge_id`,
///   `credential`: `toJSON()`'s text): checked as the email form is (`HostedPost.check`: the
///   API's own origin, the page's token), then the assertion (`finishHostedSignIn`); a 303 to
///   the app's callback with `?code=` (its session starts at `aal2`), or a page that says the
///   passkey did not sign in, the same whatever the reason.
struct HostedPasskeys {
    let ceremonies: PasskeyCeremonies
    /// The API's public base URL (`ISSUER`): the origin a post must come from, the cookies' names.
    let issuer: String
    let apps: AppRegistry

    /// Whether `request` is one of these routes.
    static func serves(_ request: HTTPRequest) -> Bool {
        request.path.hasSuffix("/auth/passkey") || request.path.hasSuffix("/auth/passkey/options")
    }

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        guard request.method == "POST" else { throw SignInError.invalidField("method", "must be POST") }
        if request.path.hasSuffix("/options") {
            // The hosted page's own script only (its origin, or Fetch Metadata's same-origin): another
            // site's script could otherwise spend the visitor's per-source allowance of sign-ins.
            guard
                BrowserPost.isSameOrigin(
                    origin: request.header("origin"), fetchSite: request.header("sec-fetch-site"),
                    expected: BrowserPost.origin(of: issuer))
            else {
                let refusal = SignInError.crossSiteRequest
                return .json(
                    refusal.status, ["error": .string(refusal.code), "message": .string(refusal.description)])
            }
            let body = try JSONRequestBody(request, maximumBytes: 1024, requiringJSONContentType: true)
            let app = try await app(body.string("app", maximumLength: 128), on: nil)
            return .json(
                200,
                SupabasePasskeysHandler.begun(try await ceremonies.beginSignIn(app: app, sourceIP: request.sourceIP)))
        }
        do {
            return try await finish(request, context: context)
        } catch let error as SignInError {
            context.logger.info("hosted passkey sign-in refused", metadata: ["reason": .string(error.code)])
            return Self.page(error.status, "Sign-in not possible", message: error.description, retry: nil)
        }
    }

    /// The form's post: checked, the assertion verified, the redirect to the app.
    private func finish(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let form = try FormBody(request, maximumBytes: 64 * 1024).fields
        try HostedPost.check(
            form: form, origin: request.header("origin"), fetchSite: request.header("sec-fetch-site"),
            cookie: request.cookie, issuer: issuer)
        let platform = try SignInPlatform(form["platform"])
        let app = try await app(form["app"], on: platform)
        // The page again, relative to `/auth/passkey` (so under a stage's prefix too).
        let retry = "../auth?app=\(FormEncoding.escape(app.id))&platform=\(platform.rawValue)"
        do {
            guard let challengeID = form["challenge_id"], let text = form["credential"],
                let credential = try? JSONValue(parsing: Array(text.utf8)), case .object = credential
            else { throw PasskeyError.verificationFailed(reason: "no credential posted") }
            let (user, redirect) = try await ceremonies.finishHostedSignIn(
                challengeID: challengeID, credential: credential, app: app, platform: platform,
                sourceIP: request.sourceIP)
            context.logger.info("signed in with a passkey on the hosted page", metadata: ["userId": .string(user.id)])
            var headers = HTMLPage.headers
            headers["location"] = redirect
            return HTTPResponse(statusCode: 303, headers: headers)
        } catch let error as PasskeyError {
            if case .verificationFailed(let reason) = error {
                context.logger.info("passkey refused", metadata: ["reason": .string(reason)])
            }
            // One answer for every refusal: it tells nobody whether a credential is registered.
            return Self.page(
                400, "Sign-in not possible",
                message: "That passkey did not sign you in. Try again, or sign in another way.",
                retry: retry)
        }
    }

    /// The app `id` names, able to take a sign-in back on `platform` when one is given.
    private func app(_ id: String?, on platform: SignInPlatform?) async throws -> App {
        guard let id, !id.isEmpty else { throw SignInError.invalidField("app", "is required") }
        guard let app = try await apps.app(id: id) else { throw SignInError.unknownApp }
        _ = try platform?.callback(of: app)
        return app
    }

    /// A small page with `message` (escaped here) and a link back to the sign-in page.
    static func page(_ status: Int, _ title: String, message: String, retry: String?) -> HTTPResponse {
        let link = retry.map { "<p><a href=\"\(HTMLPage.escaped($0))\">Try again</a></p>" } ?? ""
        return HTMLPage.response(
            status,
            body: HTMLPage.page(title: title, body: "<p role=\"alert\">\(HTMLPage.escaped(message))</p>\(link)"))
    }
}
