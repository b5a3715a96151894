/// The hosted sign-in page's side in the domain: what the page shows, and its email form's
/// post, guarded against cross-site forgery (`HostedPost.check`): the post must come from the
/// API's own origin, and the form's token must equal the one in the page's cookie.
public struct HostedSignIn: Sendable {
    static let csrfCookie = "gh_csrf"

    private let flow: OAuthFlow
    private let links: MagicLinks

    public init(flow: OAuthFlow, links: MagicLinks) {
        self.flow = flow
        self.links = links
    }

    /// What the page for `app` shows, with the anti-forgery token and the cookie that carries it.
    public struct Page: Sendable {
        public let app: App
        public let platform: SignInPlatform
        public let csrfToken: String
        public let cookie: String
    }

    public func page(app appID: String?, platform: String?) async throws -> Page {
        let platform = try SignInPlatform(platform)
        let app = try await MagicLinks.app(appID, on: platform, store: flow.store)
        let token = RandomToken.urlSafe(byteCount: 32)
        return Page(
            app: app, platform: platform, csrfToken: token,
            cookie: flow.cookie(Self.csrfCookie, token, maxAge: 1800, sameSite: "Strict"))
    }

    /// The email form's post: the origin and the token checked first, then a magic link sent
    /// as `POST /auth/send-magic-link` sends one.
    public func submit(
        form: [String: String], origin: String?, fetchSite: String?, cookie: (String) -> String?, sourceIP: String?
    ) async throws {
        try HostedPost.check(form: form, origin: origin, fetchSite: fetchSite, cookie: cookie, issuer: flow.issuer)
        try await links.send(
            email: form["email"].flatMap { $0.isEmpty ? nil : $0 }, app: form["app"], platform: form["platform"],
            sourceIP: sourceIP)
    }
}
