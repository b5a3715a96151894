import SupabaseEdge

/// Which of this function's routes a request is, by its path after `/auth/v1/` (a stage's prefix
/// before it is ignored): Supabase's health check, its settings, a route of a feature that is
/// off here, refused with Supabase's own error for that feature, or one of the domain's
/// `/.well-known/` files that name its native apps.
enum SettingsRoute: Equatable {
    /// `GET /health`, answered without a key.
    case health
    /// `GET /.well-known/apple-app-site-association`, answered without a key.
    case appleAppSiteAssociation
    /// `GET /.well-known/assetlinks.json`, answered without a key.
    case assetLinks
    /// `GET /settings`.
    case settings
    /// A route of SSO or of Supabase's OAuth 2.1 server, answered with `refusal` once the key
    /// names an app.
    case off(SupabaseError)

    init(path: String) {
        let route = path.firstRange(of: "/auth/v1/").map { String(path[$0.upperBound...]) } ?? path
        if route == "health" {
            self = .health
        } else if path.hasSuffix("/.well-known/apple-app-site-association") {
            self = .appleAppSiteAssociation
        } else if path.hasSuffix("/.well-known/assetlinks.json") {
            self = .assetLinks
        } else if route == "sso" || route.hasPrefix("sso/") {
            self = .off(.samlDisabled)
        } else if ["oauth/", "user/oauth/", "admin/oauth/"].contains(where: { route.hasPrefix($0) }) {
            self = .off(.oauthServerDisabled)
        } else {
            self = .settings
        }
    }
}
