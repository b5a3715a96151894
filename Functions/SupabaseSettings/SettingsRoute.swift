import SupabaseEdge

/// Which of this function's routes a request is, by its path after `/auth/v1/` (a stage's prefix
/// before it is ignored): Supabase's health check, its settings, or a route of a feature that is
/// off here, refused with Supabase's own error for that feature.
enum SettingsRoute: Equatable {
    /// `GET /health`, answered without a key.
    case health
    /// `GET /settings`.
    case settings
    /// A route of SSO or of Supabase's OAuth 2.1 server, answered with `refusal` once the key
    /// names an app.
    case off(SupabaseError)

    init(path: String) {
        let route = path.firstRange(of: "/auth/v1/").map { String(path[$0.upperBound...]) } ?? path
        if route == "health" {
            self = .health
        } else if route == "sso" || route.hasPrefix("sso/") {
            self = .off(.samlDisabled)
        } else if ["oauth/", "user/oauth/", "admin/oauth/"].contains(where: { route.hasPrefix($0) }) {
            self = .off(.oauthServerDisabled)
        } else {
            self = .settings
        }
    }
}
