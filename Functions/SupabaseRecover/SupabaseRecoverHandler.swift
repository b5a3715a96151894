import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

/// `POST /auth/v1/recover` `{email}` (`?redirect_to=`), with the app's `apikey`: mails a
/// recovery link when a user has the address. The answer is `{}` either way, and comes before
/// the email is sent (`AfterResponse`), so its timing does not tell either. With `code_challenge`
/// and `code_challenge_method` (PKCE), the link returns to `redirect_to` with `?code=`.
struct SupabaseRecoverHandler: SupabaseHandler {
    let signUps: PasswordSignUp

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: signUps.apps)
        let body = try JSONRequestBody.supabase(request)
        let mail = try await signUps.recover(
            email: body.string("email", maximumLength: 320), app: app, redirectTo: request.redirectTo,
            sourceIP: request.sourceIP, codeChallenge: body.codeChallenge())
        try await AfterResponse.later(mail)
        return .json(200, [:])
    }
}
