/// A post from a hosted page (the email form, the passkey's form): guarded against cross-site
/// forgery by two checks, the post must come from the API's own origin
/// (`BrowserPost.isSameOrigin`), and its `csrf` field must equal the token in the page's cookie
/// (`SameSite=Strict`, `HttpOnly`, set with the page by `HostedSignIn.page`), compared in
/// constant time.
public enum HostedPost {
    /// Throws `SignInError.crossSiteRequest` unless `form` was posted by a hosted page of the API
    /// at `issuer` in this browser (`cookie` reads the request's cookies by name).
    public static func check(
        form: [String: String], origin: String?, fetchSite: String?, cookie: (String) -> String?, issuer: String
    ) throws(SignInError) {
        guard BrowserPost.isSameOrigin(origin: origin, fetchSite: fetchSite, expected: BrowserPost.origin(of: issuer)),
            let expected = cookie(FlowCookies(issuer: issuer).name(HostedSignIn.csrfCookie)), let token = form["csrf"],
            ConstantTime.equal(expected, token)
        else { throw .crossSiteRequest }
    }
}
