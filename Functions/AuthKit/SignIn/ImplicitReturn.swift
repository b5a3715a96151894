/// supabase-js's default flow through Supabase's `/authorize` (the implicit flow: no
/// `code_challenge`), for web addresses only, built on the PKCE flow so that no code or token
/// leaves the browser that began it:
///
/// 1. `/authorize` makes a verifier itself, keeps it in an `HttpOnly` cookie of the API's own
///    (`cookie`, 5 minutes), and begins the flow with its challenge (`OAuthFlow.begin`).
/// 2. The provider's callback mints the flow's code for that challenge as for any PKCE flow, and
///    sends the browser to `path` (`returnURL`) instead of the app.
/// 3. There, the code is redeemed with the cookie's verifier (`grant_type=pkce`'s own check:
///    only the browser that began the flow has it), the cookie cleared, and the browser sent to
///    the app's `redirect_to` with the session in the URL fragment, as Supabase's implicit flow
///    answers. An app's own scheme (a mobile app) gets no such flow: the fragment would be
///    readable by any app that claims the scheme.
public struct ImplicitReturn: Sendable {
    /// The route of step 3.
    public static let path = "/auth/v1/implicit"
    static let cookieBase = "gh_implicit_verifier"

    /// The API's public base URL (`ISSUER`).
    let issuer: String

    public init(issuer: String) {
        self.issuer = issuer
    }

    /// The verifier cookie's name (`FlowCookies`: `__Host-` deployed).
    public var cookieName: String { FlowCookies(issuer: issuer).name(Self.cookieBase) }

    /// The cookie that keeps `verifier` for 5 minutes (empty and `Max-Age=0`: cleared), as the
    /// OAuth flow's are (`FlowCookies`).
    public func cookie(_ verifier: String, maxAge: Int = 300) -> String {
        FlowCookies(issuer: issuer).cookie(Self.cookieBase, verifier, maxAge: maxAge)
    }

    /// Where the provider's callback sends the browser for `app` returning to `redirectTo`.
    func returnURL(app: String, redirectTo: String) -> String {
        "\(issuer)\(Self.path)?" + FormEncoding.encode([("app", app), ("redirect_to", redirectTo)])
    }

    /// Whether `target` is a web address (`http` or `https`), the only kind the implicit flow
    /// returns to.
    public static func isWeb(_ target: String) -> Bool {
        let lowered = target.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }

    /// `target` with `error` in its fragment, where the implicit flow's client reads it (the
    /// target's own fragment replaced).
    public static func failure(_ error: [(String, String)], to target: String) -> String {
        returning(FormEncoding.encode(error), to: target)
    }

    /// `target` with `fragment` in place of its own (a hash-router app's `#/callback`).
    public static func returning(_ fragment: String, to target: String) -> String {
        let base = target.firstIndex(of: "#").map { target[..<$0] } ?? target[...]
        return "\(base)#\(fragment)"
    }
}
