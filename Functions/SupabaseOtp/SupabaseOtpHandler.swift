import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

/// `POST /auth/v1/otp` `{email}`, with the app's `apikey`: mails a magic link through the same
/// flow as `/auth/send-magic-link` (its click returns to the app's web callback, or its mobile
/// one when it has no web address, with an auth code). The answer is `{}` whether or not the
/// address has an account. With `code_challenge` and `code_challenge_method` (PKCE), the auth code
/// the click makes is bound to the challenge and exchanged by `grant_type=pkce`. Phone codes
/// are not sent here (`/auth/otp/request` sends them).
struct SupabaseOtpHandler: SupabaseHandler {
    let links: MagicLinks
    let apps: AppRegistry

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: apps)
        let body = try JSONRequestBody.supabase(request)
        guard let email = try body.optionalString("email", maximumLength: 320) else {
            throw SupabaseError.validation("email is required; phone codes are sent by /auth/otp/request")
        }
        try await links.send(
            email: email, app: app.id, platform: app.baseURL == nil ? "mobile" : "web",
            sourceIP: request.sourceIP ?? "unknown", codeChallenge: body.codeChallenge())
        return .json(200, [:])
    }
}
