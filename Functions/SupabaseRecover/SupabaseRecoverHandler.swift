import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

/// `POST /auth/v1/recover` `{email}` (`?redirect_to=`), with the app's `apikey`: mails a
/// recovery link when a user has the address. `POST /auth/v1/resend` `{type: "signup", email}`
/// mails a sign-up's confirmation again while it waits for it; its other types (`email_change`,
/// `sms`, `phone_change`) are refused by name, `feature_disabled`. The answer is `{}` either
/// way, and comes before the email is sent (`AfterResponse`), so its timing does not tell
/// either. With `code_challenge` and `code_challenge_method` (PKCE), the link returns to
/// `redirect_to` with `?code=`.
struct SupabaseRecoverHandler: SupabaseHandler {
    let signUps: PasswordSignUp

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: signUps.apps)
        let body = try JSONRequestBody.supabase(request)
        let resend = request.path.hasSuffix("/resend")
        if resend { try Self.checkResend(body) }
        guard let email = try body.optionalString("email", maximumLength: 320) else {
            throw SupabaseError.validation("email is required")
        }
        let mail =
            resend
            ? try await signUps.resendConfirmation(
                email: email, app: app, redirectTo: request.redirectTo, sourceIP: request.sourceIP,
                codeChallenge: body.codeChallenge())
            : try await signUps.recover(
                email: email, app: app, redirectTo: request.redirectTo, sourceIP: request.sourceIP,
                codeChallenge: body.codeChallenge())
        try await AfterResponse.later(mail)
        return .json(200, [:])
    }

    /// A `/resend` of what is built (a sign-up's confirmation by email), or its refusal by name.
    static func checkResend(_ body: JSONRequestBody) throws {
        switch try body.optionalString("type", maximumLength: 32) {
        case "signup": return
        case "email_change":
            throw SupabaseError.featureDisabled("Resending an email change's links is not supported yet")
        case "sms", "phone_change":
            throw SupabaseError.featureDisabled("Resending a phone code is not supported yet; request a new one")
        default: throw SupabaseError.validation("type must be signup, email_change, sms or phone_change")
        }
    }
}
