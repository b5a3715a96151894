import AuthKit

/// The sign-in routes' browser answers: redirects and small pages with one inline stylesheet
/// allowed by its hash, no script but where a page names its own (by hash: the hosted page's
/// passkey), and no third-party asset, each with headers that keep them
/// out of caches, frames and referrers (their URLs carry tokens and codes).
public enum HTMLPage {
    /// On every answer. The policy allows the pages' one inline stylesheet by its hash, and
    /// nothing else: no script, no other style, no asset, no frame (`headers(formTargets:scripts:)`
    /// adds a page's own script by its hash).
    public static let headers = headers(formTargets: [])

    /// `headers`, with a policy whose `form-action` also allows the origins (or, for an app's
    /// own scheme, the schemes) of `formTargets`: browsers apply `form-action` to the redirects
    /// that follow a form's POST too, so a link page whose button ends at the app must name it.
    /// With `scripts` (inline scripts' exact text), the policy also allows those scripts by their
    /// hashes and their requests to the page's own origin (`connect-src 'self'`), nothing more.
    public static func headers(formTargets: [String], scripts: [String] = []) -> [String: String] {
        let sources = (["'self'"] + formTargets.compactMap(formSource)).joined(separator: " ")
        let script =
            scripts.isEmpty
            ? "" : "; script-src \(scripts.map(CSPHash.sha256).joined(separator: " ")); connect-src 'self'"
        return [
            "cache-control": "no-store", "referrer-policy": "no-referrer", "x-content-type-options": "nosniff",
            "x-frame-options": "DENY",
            "content-security-policy":
                "default-src 'none'; style-src \(CSPHash.sha256(style))\(script); form-action \(sources); frame-ancestors 'none'; base-uri 'none'",
        ]
    }

    /// The CSP source of `url`: `https://host[:port]` for a web address, `scheme:` for an app's
    /// own scheme; nil for anything that is not plainly one of those.
    public static func formSource(_ url: String) -> String? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) }) else {
            return nil
        }
        guard scheme == "http" || scheme == "https" else { return "\(scheme):" }
        let authority = url[schemeEnd.upperBound...].prefix { !"/?#".contains($0) }
        guard !authority.isEmpty, authority.allSatisfy({ $0.isLetter || $0.isNumber || ".-:[]".contains($0) }) else {
            return nil
        }
        return "\(scheme)://\(authority.lowercased())"
    }

    /// The pages' stylesheet: one readable column on a phone, links and buttons as large
    /// targets, text at 4.5:1 contrast or more, a visible focus ring.
    static let style = [
        "body{font:1.0625rem/1.5 system-ui,sans-serif;max-width:26rem;margin:2rem auto;padding:0 1.25rem;",
        "color:#1b1b1f;background:#fff}",
        "h1{font-size:1.5rem;line-height:1.25;margin:0 0 1.25rem}",
        "a,button{display:block;box-sizing:border-box;width:100%;padding:.75rem 1rem;margin:.5rem 0;",
        "border:1px solid #1b1b1f;border-radius:.5rem;font:inherit;text-align:center;text-decoration:none;",
        "color:#1b1b1f;background:#fff;cursor:pointer}",
        "button[type=submit]:first-of-type{color:#fff;background:#1b1b1f}",
        "label{font-weight:600}",
        "input,select{display:block;box-sizing:border-box;width:100%;padding:.65rem .75rem;margin:.25rem 0 .75rem;",
        "border:1px solid #5f5f66;border-radius:.5rem;font:inherit}",
        ":focus-visible{outline:3px solid #0b57d0;outline-offset:2px}",
        "dt{font-weight:600}dd{margin:0 0 .75rem}",
    ].joined()

    /// A 302 to `location`, setting `cookies`.
    public static func redirect(_ location: String, cookies: [String] = []) -> HTTPResponse {
        var headers = Self.headers
        headers["location"] = location
        return HTTPResponse(statusCode: 302, headers: headers, cookies: cookies)
    }

    /// An HTML answer; `formTargets` as `headers(formTargets:)` takes them.
    public static func response(
        _ status: Int, body: String?, cookies: [String] = [], formTargets: [String] = [], scripts: [String] = []
    ) -> HTTPResponse {
        var headers =
            formTargets.isEmpty && scripts.isEmpty
            ? Self.headers : Self.headers(formTargets: formTargets, scripts: scripts)
        headers["content-type"] = "text/html; charset=utf-8"
        return HTTPResponse(statusCode: status, headers: headers, cookies: cookies, body: body)
    }

    /// A whole page: `title` (escaped here) and `body` (HTML, escaped by the caller).
    public static func page(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escaped(title))</title>
        <style>\(style)</style></head>
        <body><h1>\(escaped(title))</h1>
        \(body)
        </body></html>
        """
    }

    /// `text` for HTML text or an attribute value.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
