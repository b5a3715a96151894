import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime

/// `POST /auth/otp/request` `{phoneNumber, countryCode?, app?, codeChallenge?, channel?}`: texts a
/// 6-digit code (or, `channel: "call"` with Twilio Verify, calls with it). The same answer for
/// every valid number; over a rate limit, 429 with `Retry-After`.
struct OtpRequestHandler: HTTPHandler {
    let codes: PhoneCodes
    let apps: AppRegistry
    /// The app a request that names none asks for (`DEFAULT_APP`).
    let defaultApp: DefaultApp

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let body = try JSONRequestBody(request, requiringJSONContentType: true)
        let phone = try PhoneCodes.number(
            body.optionalString("phoneNumber", maximumLength: 32),
            countryCode: body.optionalString("countryCode", maximumLength: 2))
        let app = try await PhoneSignIn.app(
            body.optionalString("app", maximumLength: 64), defaultApp: defaultApp, apps: apps)
        try await codes.request(
            phone, app: app, sourceIP: request.sourceIP ?? "unknown",
            codeChallenge: body.optionalString("codeChallenge", maximumLength: 64),
            channel: try PhoneCodeChannel(field: body.optionalString("channel", maximumLength: 8)))
        return .json(200, ["success": true, "status": "pending", "message": "Verification code sent"])
    }

    /// Gatehouse's error answer with the phone-first clients' `success: false` beside `error`
    /// and `message`.
    func answer(_ error: any Error, to request: HTTPRequest, context: LambdaContext) -> HTTPResponse {
        ErrorAnswer.response(to: error, context: context, markingFailure: true)
    }
}
