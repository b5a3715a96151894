import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

extension SupabaseTokenHandler {
    /// `GET /auth/v1/implicit?app=…&redirect_to=…&code=…`, where the provider's callback sends
    /// the browser of an implicit flow begun at `/authorize` (`ImplicitReturn`): the flow's code
    /// redeemed with the verifier in this browser's cookie, the cookie cleared, and a 303 to
    /// `redirect_to` (the app's, a web address) with the session in the fragment, or with
    /// `#error=access_denied&error_code=…`. An unknown app or a `redirect_to` that is not its
    /// web address is a 400 page, and nothing is redeemed.
    func implicitReturn(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let query = request.queryParameters
        let implicit = ImplicitReturn(issuer: issuer)
        guard let appID = query["app"], App.isValidID(appID), let app = try await sessions.apps.app(id: appID),
            let target = try? AppRedirect.resolve(query["redirect_to"], app: app), ImplicitReturn.isWeb(target)
        else {
            context.logger.info("implicit return refused", metadata: ["reason": "redirect_not_allowed"])
            let body = "<p>This sign-in could not be finished here. Start again from the app.</p>"
            return HTMLPage.response(
                400, body: HTMLPage.page(title: "Sign-in not finished", body: body),
                cookies: [implicit.cookie("", maxAge: 0)])
        }
        let session: SessionResponse
        do {
            (_, session) = try await accounts.signIn(
                authCode: query["code"] ?? "", codeVerifier: request.cookie(implicit.cookieName) ?? "", app: app,
                sourceIP: request.sourceIP)
        } catch let error as FlowError {
            // No cookie (another browser), a spent or expired code: the flow is over.
            return refused(to: target, reason: error.description, implicit: implicit, context: context)
        } catch let error as any ClientError {
            // Over a limit, an app that signs in only through its backend, a user gone.
            return refused(to: target, reason: error.code, implicit: implicit, context: context)
        }
        context.logger.info("session started", metadata: ["flow": "implicit"])
        let fragment = SupabaseJSON.fragment(session, lifetime: sessions.accessTokens.lifetime, type: nil)
        return HTTPResponse(
            statusCode: 303,
            headers: [
                "location": ImplicitReturn.returning(fragment, to: target), "cache-control": "no-store",
                "referrer-policy": "no-referrer",
            ],
            cookies: [implicit.cookie("", maxAge: 0)])
    }

    /// Back to the app's `target` with the implicit flow's error in the fragment, the verifier
    /// cookie cleared; `reason` is for the log only.
    private func refused(
        to target: String, reason: String, implicit: ImplicitReturn, context: LambdaContext
    ) -> HTTPResponse {
        context.logger.info("implicit return refused", metadata: ["reason": .string(reason)])
        let failure = ImplicitReturn.failure(
            [
                ("error", "access_denied"), ("error_code", "flow_state_not_found"),
                ("error_description", "The sign-in could not be finished; start it again"),
            ], to: target)
        return HTTPResponse(
            statusCode: 303, headers: ["location": failure, "cache-control": "no-store"],
            cookies: [implicit.cookie("", maxAge: 0)])
    }
}
