import AuthKit
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

/// `GET /auth/v1/settings`, with the app's `apikey`: which sign-in methods Supabase's API offers
/// here, in Supabase's shape (`SupabaseJSON.settings`), as supabase-swift and the dashboards
/// read it.
struct SupabaseSettingsHandler: SupabaseHandler {
    let apps: AppRegistry
    /// Whether Apple's ID tokens are checked (`APPLE_CLIENT_IDS` is set).
    let apple: Bool
    /// Whether the OIDC provider is configured (`OIDC_ISSUER` is set): its ID tokens and
    /// `/authorize`, as `google`.
    let google: Bool

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        _ = try await request.supabaseApp(in: apps)
        return .json(200, SupabaseJSON.settings(apple: apple, google: google))
    }
}
