import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

/// `POST /auth/v1/recover` `{email}` (`?redirect_to=`), with the app's `apikey`: mails a
/// recovery link when a user has the address. The answer is `{}` either way.
struct SupabaseRecoverHandler: SupabaseHandler {
    let signUps: PasswordSignUp

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: signUps.apps)
        let body = try JSONRequestBody.supabase(request)
        try await signUps.recover(
            email: body.string("email", maximumLength: 320), app: app, redirectTo: request.redirectTo,
            sourceIP: request.sourceIP)
        return .json(200, [:])
    }
}
