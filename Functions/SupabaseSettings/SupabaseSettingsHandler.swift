import AuthKit
import HTTPEdge
import LambdaRuntime
import SupabaseEdge

/// `GET /auth/v1/settings`, with the app's `apikey`: which sign-in methods Supabase's API offers
/// here, in Supabase's shape (`SupabaseJSON.settings`), as supabase-swift and the dashboards
/// read it. `GET /auth/v1/health`, with or without a key (a load balancer's check has none):
/// Supabase's `{version, name, description}`, reading nothing. The routes of what is off here,
/// single sign-on (`POST /auth/v1/sso`) and Supabase's OAuth 2.1 server (`/auth/v1/oauth/…`,
/// `/auth/v1/user/oauth/grants`, `/auth/v1/admin/oauth/clients…`), with the app's `apikey`:
/// Supabase's own error for that feature being disabled (`SettingsRoute`), never the gateway's
/// bare 404; this function reads nothing more for them than the key's app.
/// `GET /.well-known/apple-app-site-association` and `GET /.well-known/assetlinks.json`, without a
/// key (Apple's CDN and Android fetch them): the native apps the registered apps list, which may
/// use this domain's passkeys (`AppSiteAssociation`), read from the one item the CLI keeps.
struct SupabaseSettingsHandler: SupabaseHandler {
    let apps: AppRegistry
    /// Whether Apple's ID tokens are checked (`APPLE_CLIENT_IDS` is set).
    let apple: Bool
    /// Whether the OIDC provider is configured (`OIDC_ISSUER` is set): its ID tokens and
    /// `/authorize`, as `google`.
    let google: Bool
    /// How phone codes are sent (`SMS_PROVIDER`, the template's `SmsDelivery`: `outbox`, `sns`,
    /// `twilio`; this function sends none itself); nil when phone sign-in is off.
    let smsDelivery: String?
    /// Whether anonymous sign-in is on (`ANONYMOUS_USERS`, the template's `AnonymousUsers`).
    let anonymous: Bool

    /// The `/.well-known/` files are public and change only when an app does: an hour in a cache.
    static let wellKnownCaching = ["cache-control": "public, max-age=3600"]

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let route = SettingsRoute(path: request.path)
        switch route {
        case .health:
            return .json(200, SupabaseJSON.health)
        case .appleAppSiteAssociation:
            return .json(200, try await apps.siteAssociation().appleAppSiteAssociation, headers: Self.wellKnownCaching)
        case .assetLinks:
            return .json(200, try await apps.siteAssociation().assetLinks, headers: Self.wellKnownCaching)
        case .settings, .off:
            break
        }
        _ = try await request.supabaseApp(in: apps)
        if case .off(let refusal) = route {
            throw refusal
        }
        return .json(
            200, SupabaseJSON.settings(apple: apple, google: google, smsDelivery: smsDelivery, anonymous: anonymous))
    }
}
