import AuthKit
import HTTPEdge
import LambdaRuntime
import Logging

/// `POST /auth/exchange` `{"code", "app"?, "codeVerifier"?}`: a single-use auth code of that app
/// (`DEFAULT_APP` when absent) for an access token, a refresh token and the user. A code of another app, or of an app that
/// redeems its codes only through its backend, is refused as an unknown code is, and spent.
struct ExchangeHandler: HTTPHandler {
    let sessions: SessionService
    let defaultApp: DefaultApp

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let body = try JSONRequestBody(request)
        let code = try body.string("code", maximumLength: 256)
        let app = try defaultApp.resolve(body.optionalString("app", maximumLength: 64))
        let verifier = try body.optionalString("codeVerifier", maximumLength: 128)
        let session = try await sessions.exchange(code: code, app: app, codeVerifier: verifier)
        context.logger.info(
            "code exchanged", metadata: ["userId": .string(session.user.id), "isNewUser": "\(session.user.isNewUser)"])
        return .json(200, session.json)
    }
}
