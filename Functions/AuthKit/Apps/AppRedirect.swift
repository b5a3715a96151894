/// Where a link in an account email returns to (`redirect_to`): the app's registered web origin
/// or a path under it, or an address in its mobile scheme. Anything else is refused, so a link
/// can never carry a session to someone else's site.
public enum AppRedirect {
    /// `requested` when it is the app's, else `AccountError.redirectNotAllowed`; without one,
    /// the app's web origin (`{baseURL}/`), or its mobile callback when it has no web origin.
    public static func resolve(_ requested: String?, app: App) throws(AccountError) -> String {
        guard let requested, !requested.isEmpty else {
            if let base = app.baseURL { return base + "/" }
            if let scheme = app.mobileScheme { return "\(scheme)://auth/callback" }
            throw .redirectNotAllowed
        }
        guard requested.utf8.count <= 2048,
            requested.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" })
        else { throw .redirectNotAllowed }
        if let base = app.baseURL, requested == base || hasPrefix(requested, base, followedBy: "/?#") {
            return requested
        }
        if let scheme = app.mobileScheme, requested.hasPrefix("\(scheme)://") { return requested }
        throw .redirectNotAllowed
    }

    /// `target` with `pairs` added to its query, before any fragment (a hash-router app's
    /// `#/callback` stays last): how a PKCE flow's `code`, or a flow's error, returns to the app.
    public static func adding(_ pairs: [(String, String)], to target: String) -> String {
        let (base, fragment) = target.firstIndex(of: "#").map { (target[..<$0], target[$0...]) } ?? (target[...], "")
        return "\(base)\(base.contains("?") ? "&" : "?")\(FormEncoding.encode(pairs))\(fragment)"
    }

    /// Whether `text` is `prefix` followed by one of `boundaries`: `https://a.example/x` is
    /// under `https://a.example`, `https://a.example.evil/` and `https://a.example@evil/` are not.
    private static func hasPrefix(_ text: String, _ prefix: String, followedBy boundaries: String) -> Bool {
        guard text.hasPrefix(prefix), let next = text.dropFirst(prefix.count).first else { return false }
        return boundaries.contains(next)
    }
}
