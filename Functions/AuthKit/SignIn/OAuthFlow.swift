import Crypto
import JOSE
import StoreCore

/// OAuth 2.0 authorization code with PKCE (S256) through an OIDC provider, for web apps that
/// send the browser to `/auth?app=…&provider=…`.
///
/// `begin` answers the redirect to the provider and the cookies that carry the verifier, the
/// state, the app, the platform and the app's own PKCE challenge (if it sent one) to the
/// callback: `HttpOnly; SameSite=Lax; Max-Age=300`, as `__Host-` cookies (`Secure`, `Path=/`)
/// unless the API itself is on `http://127.0.0.1` or `localhost` (then plain names on `/auth`).
public struct OAuthFlow: Sendable {
    /// Gatehouse's provider names, and the provider names Cognito's `identity_provider` takes.
    public static let providers = ["google": "Google", "apple": "SignInWithApple"]
    static let cookieNames = [
        "gh_oauth_verifier", "gh_oauth_state", "gh_oauth_app", "gh_oauth_platform", "gh_oauth_provider",
        "gh_oauth_challenge", "gh_oauth_redirect", "gh_oauth_implicit",
    ]

    let settings: OAuthSettings
    /// The API's public base URL (`ISSUER`): the callback is `{issuer}/auth/callback`.
    let issuer: String
    let store: any KeyValueStore
    let clock: any StoreClock

    public init(
        settings: OAuthSettings, issuer: String, store: any KeyValueStore, clock: any StoreClock = SystemStoreClock()
    ) {
        self.settings = settings
        self.issuer = issuer
        self.store = store
        self.clock = clock
    }

    /// The provider's authorize URL for this sign-in, and the cookies to set.
    public func begin(
        app appID: String?, provider: String?, platform: String?, clientChallenge: String?
    ) async throws -> (location: String, cookies: [String]) {
        let platform = try SignInPlatform(platform)
        let app = try await MagicLinks.app(appID, on: platform, store: store)
        return try start(
            app: app, provider: provider, platform: platform, challenge: try PKCE.challenge(from: clientChallenge),
            redirectTo: nil)
    }

    /// The provider's authorize URL and the flow's cookies: the provider's PKCE verifier, the
    /// state, the app, the platform, the provider, and the client's challenge and the address to
    /// return to (base64url, as a cookie value cannot hold every URL) when there are; those two
    /// cleared when there are not.
    func start(
        app: App, provider: String?, platform: SignInPlatform, challenge: String?, redirectTo: String?,
        implicit: Bool = false, state: String = RandomToken.urlSafe(byteCount: 24)
    ) throws -> (location: String, cookies: [String]) {
        guard let provider, let identityProvider = Self.providers[provider] else {
            throw SignInError.invalidField("provider", "must be google or apple")
        }
        let verifier = RandomToken.urlSafe(byteCount: 32)
        let query: [(String, String)] = [
            ("response_type", "code"), ("client_id", settings.clientID), ("redirect_uri", callbackURL),
            ("scope", "openid email profile"), ("code_challenge", PKCE.challenge(for: verifier)),
            ("code_challenge_method", "S256"), ("state", state), ("identity_provider", identityProvider),
        ]
        var values = [verifier, state, app.id, platform.rawValue, provider]
        if let challenge { values.append(challenge) }
        if let redirectTo { values.append(Base64URL.encode(Array(redirectTo.utf8))) }
        if implicit { values.append("1") }
        // The optional cookies this flow does not set are cleared: an unfinished earlier flow's
        // challenge or return address must not carry over into this one.
        let cookies =
            zip(Self.cookieNames, values).map { cookie($0, $1, maxAge: 300) }
            + Self.cookieNames.dropFirst(values.count).map { cookie($0, "", maxAge: 0) }
        return ("\(settings.authorizeURL)?\(FormEncoding.encode(query))", cookies)
    }

    /// `{issuer}/auth/callback`.
    var callbackURL: String { "\(issuer)/auth/callback" }

    /// The name the cookie `name` is set and read under (`FlowCookies`).
    public func cookieName(_ name: String) -> String { FlowCookies(issuer: issuer).name(name) }

    /// A cookie of the flow (`FlowCookies`).
    func cookie(_ name: String, _ value: String, maxAge: Int, sameSite: String = "Lax") -> String {
        FlowCookies(issuer: issuer).cookie(name, value, maxAge: maxAge, sameSite: sameSite)
    }

    /// `scheme://host[:port]` of the API: what a browser sends as `Origin` from its pages.
    var origin: String { BrowserPost.origin(of: issuer) }

    /// The cookies that end the flow (`Max-Age=0`).
    public var clearedCookies: [String] { Self.cookieNames.map { cookie($0, "", maxAge: 0) } }
}
