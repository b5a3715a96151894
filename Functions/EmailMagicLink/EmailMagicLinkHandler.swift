import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime

/// `POST /api/v1/auth/email` `{app, email, platform?}`, called by an app's backend with an S2S
/// assertion (verified and spent exactly as `VerifyCode` does): mails a sign-in link for that
/// app. No per-IP limit (the caller is a backend); the per-address limit holds.
struct EmailMagicLinkHandler: HTTPHandler {
    let assertions: S2SVerifier
    let links: MagicLinks

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        // The assertion first, so an unauthenticated caller learns nothing of the body rules.
        let bytes = try request.bodyBytes()
        let assertion = try await assertions.verify(
            authorization: request.header("authorization"), contentSHA256: request.header("x-amz-content-sha256"),
            body: bytes)
        let body = try JSONRequestBody(bytes: bytes)
        let app = try body.string("app", maximumLength: 64)
        guard assertion.app == app else { throw S2SError.wrongApp }
        try await assertions.redeem(assertion)
        try await links.send(
            email: body.optionalString("email", maximumLength: 320), app: app,
            platform: body.optionalString("platform", maximumLength: 16), sourceIP: nil,
            codeChallenge: body.optionalString("codeChallenge", maximumLength: 64))
        return .json(200, ["success": true])
    }
}
