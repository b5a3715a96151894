import AuthKit
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

/// `POST /auth/v1/signup` `{email, password, data?}` (`?redirect_to=`), with the app's `apikey`:
/// a user whose address waits for the confirmation link mailed to it, answered as Supabase
/// answers when confirmation is required (the user, no session). A taken address gets the same
/// answer and no email. With `code_challenge` and `code_challenge_method` (the PKCE flow, supabase-swift's
/// default), the link's button returns to `redirect_to` with `?code=` for `grant_type=pkce`.
/// `{phone, password, channel?, data?}`: a user whose number waits for the code texted to it
/// (`PhoneSignUp`), answered the same way, the text sent after the answer; `verifyOTP(phone:
/// token:type: .sms)` confirms it. `phone_provider_disabled` when phone codes are off; `channel`
/// `whatsapp` is refused by name.
///
/// Neither address nor number (`signInAnonymously(data:)`): an anonymous user and its session
/// (`AnonymousSignIn`), answered as Supabase answers, when the template's `AnonymousUsers` is
/// `enabled`; otherwise Supabase's `anonymous_provider_disabled`.
struct SupabaseSignupHandler: SupabaseHandler {
    let signUps: PasswordSignUp
    /// Nil when the function has no OTP secret: phone sign-in is off.
    let phones: PhoneSignUp?
    /// Nil when anonymous sign-in is off.
    let anonymous: AnonymousSignIn?

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: signUps.apps)
        let body = try JSONRequestBody.supabase(request)
        let email = try body.optionalString("email", maximumLength: 320)
        if email != nil, try body.optionalString("phone", maximumLength: 32) != nil {
            throw SupabaseError.validation("Only an email address or phone number should be provided on signup.")
        }
        if email == nil {
            if try body.optionalString("phone", maximumLength: 32) != nil {
                return try await signUp(phone: body, app: app, sourceIP: request.sourceIP)
            }
            return try await signInAnonymously(body, app: app.id, sourceIP: request.sourceIP)
        }
        let (user, mail) = try await signUps.signUp(
            email: body.string("email", maximumLength: 320), password: body.string("password", maximumLength: 1024),
            metadata: body.optionalObject("data") ?? [:], app: app, redirectTo: request.redirectTo,
            sourceIP: request.sourceIP, codeChallenge: body.codeChallenge())
        try await AfterResponse.later(mail)
        return .json(200, SupabaseJSON.user(user, confirmationSentAt: user.updatedAt))
    }

    /// The phone path: the pending user (or a look-alike), the code texted after the answer.
    private func signUp(phone body: JSONRequestBody, app: App, sourceIP: String?) async throws -> HTTPResponse {
        guard let phones else { throw SupabaseError.phoneDisabled }
        try body.checkSMSChannel()
        // A number's sign-up returns to no link, so it has no PKCE flow (supabase/auth's words).
        guard try body.optionalString("code_challenge", maximumLength: 128) == nil else {
            throw SupabaseError.validation("PKCE not supported for phone signups")
        }
        let (user, text) = try await phones.signUp(
            phone: body.phone(), password: body.string("password", maximumLength: 1024),
            metadata: body.optionalObject("data") ?? [:], app: app, sourceIP: sourceIP)
        try await AfterResponse.later(text)
        return .json(200, SupabaseJSON.user(user, confirmationSentAt: user.updatedAt))
    }

    /// An anonymous user and its session, or `anonymous_provider_disabled` when that is off.
    private func signInAnonymously(_ body: JSONRequestBody, app: String, sourceIP: String?) async throws -> HTTPResponse
    {
        guard let anonymous else { throw SupabaseError.anonymousDisabled }
        let (user, session) = try await anonymous.signIn(
            metadata: body.optionalObject("data") ?? [:], app: app, sourceIP: sourceIP)
        return .json(200, SupabaseJSON.session(session, user: user, lifetime: session.expiresIn))
    }
}
