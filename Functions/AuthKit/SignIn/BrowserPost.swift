/// Whether a form post may act for the browser that sent it: a page of the API's own must have
/// made it. A forged post from another site (login CSRF: the attacker's own emailed link pressed
/// in the victim's browser, signing the victim in to the attacker's account) carries that site's
/// `Origin`, which no script can change.
public enum BrowserPost {
    /// `scheme://host[:port]` of `url` (the API's base URL, `ISSUER`): what a browser sends as
    /// `Origin` from its pages.
    public static func origin(of url: String) -> String {
        let parts = url.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        // "https:", "", "host:port", "path…"
        guard parts.count >= 3, parts[1].isEmpty else { return url }
        return "\(parts[0])//\(parts[2])"
    }

    /// A post whose `Origin` is `expected`, or `null` with `Sec-Fetch-Site: same-origin` (a page
    /// served with `Referrer-Policy: no-referrer`), came from the API's own page. A post with
    /// neither header came from no browser (curl, an app's HTTP client), where there is no
    /// victim's browser to ride on. Any other post is refused.
    public static func isAllowed(origin: String?, fetchSite: String?, expected: String) -> Bool {
        if origin == nil && fetchSite == nil { return true }
        return isSameOrigin(origin: origin, fetchSite: fetchSite, expected: expected)
    }

    /// Whether a form post came from a page of `expected`, the API's origin: its `Origin` says
    /// so, or the browser withheld the origin as `null` (as Chromium does for a page served with
    /// `Referrer-Policy: no-referrer`) and Fetch Metadata's `Sec-Fetch-Site`, which no script can
    /// set, says `same-origin`. A post with neither is refused.
    public static func isSameOrigin(origin: String?, fetchSite: String?, expected: String) -> Bool {
        origin == expected || (origin == "null" && fetchSite == "same-origin")
    }
}
