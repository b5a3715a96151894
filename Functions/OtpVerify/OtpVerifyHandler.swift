import AuthKit
import HTTPEdge
import LambdaRuntime

/// `POST /auth/otp/verify` `{phoneNumber, countryCode?, code, codeVerifier?, name?, app?}`: a right code signs
/// the number's user in (tokens as `Exchange` gives them); a wrong, used or expired one is 401,
/// and so is a locked number, with `Retry-After`.
struct OtpVerifyHandler: HTTPHandler {
    let signIn: PhoneSignIn

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let body = try JSONRequestBody(request, requiringJSONContentType: true)
        let (phone, app) = try await signIn.target(
            phoneNumber: body.optionalString("phoneNumber", maximumLength: 32),
            countryCode: body.optionalString("countryCode", maximumLength: 2),
            app: body.optionalString("app", maximumLength: 64))
        let answer = try await signIn.verify(
            phone, code: body.optionalString("code", maximumLength: 16),
            codeVerifier: body.optionalString("codeVerifier", maximumLength: 128),
            name: body.optionalString("name", maximumLength: 200), app: app, sourceIP: request.sourceIP)
        return .json(200, answer)
    }

    /// Gatehouse's error answer with the phone-first clients' `success: false` beside `error`
    /// and `message`.
    func answer(_ error: any Error, to request: HTTPRequest, context: LambdaContext) -> HTTPResponse {
        ErrorAnswer.response(to: error, context: context, markingFailure: true)
    }
}
