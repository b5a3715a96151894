import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

/// `POST /auth/v1/recover` `{email}` (`?redirect_to=`), with the app's `apikey`: mails a
/// recovery link when a user has the address. `POST /auth/v1/resend` `{type: "signup", email}`
/// mails a sign-up's confirmation again while it waits for it; `{type: "email_change", email}`
/// (the user's current address) mails the links of its pending address change again
/// (`EmailChanges.resend`); `{type: "sms", phone}` texts a number's password sign-up its code
/// again while it waits for it (`PhoneSignUp.resendCode`); `{type: "phone_change", phone}` (the
/// new number) texts the live code of a number change to it again (`PhoneCodes.prepareChangeResend`). The answer is `{}` either way, and comes before the email or text is sent
/// (`AfterResponse`), so its timing does not tell either. With `code_challenge` and
/// `code_challenge_method` (PKCE), the link returns to `redirect_to` with `?code=`.
struct SupabaseRecoverHandler: SupabaseHandler {
    let signUps: PasswordSignUp
    /// Nil when the function has no OTP secret: phone sign-in is off.
    let phones: PhoneSignUp?

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: signUps.apps)
        let body = try JSONRequestBody.supabase(request)
        let resend = request.path.hasSuffix("/resend") ? try Self.resendType(body) : nil
        if resend == "sms" || resend == "phone_change" {
            return try await resendCode(body, change: resend == "phone_change", app: app, sourceIP: request.sourceIP)
        }
        guard let email = try body.optionalString("email", maximumLength: 320) else {
            throw SupabaseError.validation("email is required")
        }
        let mail =
            switch resend {
            case "signup":
                try await signUps.resendConfirmation(
                    email: email, app: app, redirectTo: request.redirectTo, sourceIP: request.sourceIP,
                    codeChallenge: body.codeChallenge())
            case "email_change":
                try await signUps.resendEmailChange(
                    email: email, app: app, redirectTo: request.redirectTo, sourceIP: request.sourceIP)
            default:
                try await signUps.recover(
                    email: email, app: app, redirectTo: request.redirectTo, sourceIP: request.sourceIP,
                    codeChallenge: body.codeChallenge())
            }
        try await AfterResponse.later(mail)
        return .json(200, [:])
    }

    /// The `type` of a `/resend` of what is built (a sign-up's confirmation, an address change's
    /// links), or its refusal by name.
    static func resendType(_ body: JSONRequestBody) throws -> String {
        switch try body.optionalString("type", maximumLength: 32) {
        case let type? where ["signup", "email_change", "sms", "phone_change"].contains(type): return type
        default: throw SupabaseError.validation("type must be signup, email_change, sms or phone_change")
        }
    }

    /// `{type: "sms" or "phone_change", phone}`: `{}`, and the sign-up's code, or the number
    /// change's, texted again after it when the number has one waiting.
    private func resendCode(
        _ body: JSONRequestBody, change: Bool, app: App, sourceIP: String?
    ) async throws -> HTTPResponse {
        guard let phones else { throw SupabaseError.phoneDisabled }
        let phone = try body.phone()
        let text =
            change
            ? try await phones.codes.prepareChangeResend(to: phone, app: app.id, sourceIP: sourceIP)
            : try await phones.resendCode(phone: phone, app: app, sourceIP: sourceIP)
        try await AfterResponse.later(text)
        return .json(200, [:])
    }
}
