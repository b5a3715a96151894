import AuthKit

extension HTMLPage {
    /// The 403 page for a link page's form posted from another site (`BrowserPost.isAllowed`):
    /// nil when `request` came from a page of `apiOrigin`, or from no browser.
    public static func crossSiteRefusal(of request: HTTPRequest, apiOrigin: String) -> HTTPResponse? {
        let allowed = BrowserPost.isAllowed(
            origin: request.header("origin"), fetchSite: request.header("sec-fetch-site"), expected: apiOrigin)
        return allowed ? nil : response(403, body: crossSitePage)
    }

    static let crossSitePage = page(
        title: "Open the link again",
        body: "<p>This form was not sent from the link's own page. Open the link from the email again.</p>")
}
