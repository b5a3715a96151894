import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

/// `POST /auth/v1/otp`, with the app's `apikey`:
/// - `{email}`: mails a magic link through the same flow as `/auth/send-magic-link` (its click
///   returns to the app's web callback, or its mobile one when it has no web address, with an
///   auth code). With `code_challenge` and `code_challenge_method` (PKCE), the code is bound to
///   the challenge and exchanged by `grant_type=pkce`. The link is Supabase's `/auth/v1/verify`
///   link, whose button returns to `?redirect_to=` (the app's), or without one to the app's base
///   URL (Supabase's `SITE_URL`): `?code=` for PKCE, the session in the fragment without a
///   challenge. An app with no base URL (mobile only) gets the email callback's link. With the
///   OTP secret, the email also carries a six-digit code for the link (`POST /verify {email,
///   token, type: "email"}`).
/// - `{phone}` (`channel` `sms`): texts a six-digit code through `PhoneCodes`, as
///   `/auth/otp/request` does, with its limits; `POST /verify {phone, token, type: "sms"}` uses it.
/// `POST /auth/v1/magiclink` `{email, code_challenge?, code_challenge_method?, data?}` (Supabase's
/// older route) is `/otp`'s email path. `data` becomes the metadata of a user the click creates.
/// The answer is `{}` whether or not the address or number has an account. `create_user: false`
/// (`shouldCreateUser: false`) mails only an address that has one, and its link never creates
/// one; with a phone, only a number that has a user is texted, after the answer.
struct SupabaseOtpHandler: SupabaseHandler {
    let links: MagicLinks
    /// Nil when the function has no OTP secret: phone sign-in is off.
    let phoneCodes: PhoneCodes?
    let apps: AppRegistry
    /// Where a `create_user: false` request looks its number up, after the answer.
    let users: UserDirectory

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: apps)
        let body = try JSONRequestBody.supabase(request)
        if request.path.hasSuffix("/magiclink") { return try await sendLink(request, body: body, app: app) }
        if let phone = try body.optionalString("phone", maximumLength: 32) {
            return try await sendCode(to: phone, body: body, app: app, sourceIP: request.sourceIP ?? "unknown")
        }
        return try await sendLink(request, body: body, app: app)
    }

    /// The phone path: a code texted, `{}` answered. With `create_user: false`, the request is
    /// checked and counted as any is (`PhoneCodes.prepare`), and only a number that has a user is
    /// texted, after the answer, so neither the answer, its time nor a limit tells whether it
    /// has one.
    private func sendCode(
        to phone: String, body: JSONRequestBody, app: App, sourceIP: String
    ) async throws
        -> HTTPResponse
    {
        guard let phoneCodes else { throw SupabaseError.phoneDisabled }
        try body.checkSMSChannel()
        let number = try PhoneCodes.number(phone, countryCode: nil)
        guard try body.flag("create_user", absent: true) else {
            // Checked and counted now, whatever the number; looked up and texted after the answer.
            let text = try await phoneCodes.prepare(number, app: app.id, sourceIP: sourceIP)
            try await AfterResponse.later { [users] in
                guard try await users.user(.phone(number)) != nil else { return }
                try await text()
            }
            return .json(200, [:])
        }
        try await phoneCodes.request(number, app: app.id, sourceIP: sourceIP)
        return .json(200, [:])
    }

    /// The email path: a magic link mailed, `{}` answered.
    private func sendLink(_ request: HTTPRequest, body: JSONRequestBody, app: App) async throws -> HTTPResponse {
        guard let email = try body.optionalString("email", maximumLength: 320) else {
            throw SupabaseError.validation(
                request.path.hasSuffix("/magiclink") ? "email is required" : "email or phone is required")
        }
        let createUser = try body.flag("create_user", absent: true)
        let mail = try await links.prepare(
            email: email, app: app.id, platform: app.baseURL == nil ? "mobile" : "web",
            sourceIP: request.sourceIP ?? "unknown", codeChallenge: body.codeChallenge(),
            redirectTo: request.redirectTo ?? app.baseURL, metadata: body.optionalObject("data") ?? [:],
            createUser: createUser)
        // Without a user to create, whether the address has one must not show in the answer's
        // time: the link is recorded and mailed after it.
        if createUser { try await mail() } else { try await AfterResponse.later(mail) }
        return .json(200, [:])
    }
}
