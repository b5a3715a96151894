import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

/// `POST /auth/v1/recover` `{email}` (`?redirect_to=`), with the app's `apikey`: mails a
/// recovery link when a user has the address. `POST /auth/v1/resend` `{type: "signup", email}`
/// mails a sign-up's confirmation again while it waits for it; `{type: "email_change", email}`
/// (the user's current address) mails the links of its pending address change again
/// (`EmailChanges.resend`); `sms` and `phone_change` are refused by name, `feature_disabled`. The answer is `{}` either
/// way, and comes before the email is sent (`AfterResponse`), so its timing does not tell
/// either. With `code_challenge` and `code_challenge_method` (PKCE), the link returns to
/// `redirect_to` with `?code=`.
struct SupabaseRecoverHandler: SupabaseHandler {
    let signUps: PasswordSignUp

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: signUps.apps)
        let body = try JSONRequestBody.supabase(request)
        let resend = request.path.hasSuffix("/resend") ? try Self.resendType(body) : nil
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
        case let type? where type == "signup" || type == "email_change": return type
        case "sms", "phone_change":
            throw SupabaseError.featureDisabled("Resending a phone code is not supported yet; request a new one")
        default: throw SupabaseError.validation("type must be signup, email_change, sms or phone_change")
        }
    }
}
