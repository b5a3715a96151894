/// The sign-in routes' browser answers: redirects and small pages with no script, no style and
/// no third-party asset, each with headers that keep them out of caches, frames and referrers
/// (their URLs carry tokens and codes).
public enum HTMLPage {
    /// On every answer.
    public static let headers = [
        "cache-control": "no-store", "referrer-policy": "no-referrer", "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "content-security-policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ]

    /// A 302 to `location`, setting `cookies`.
    public static func redirect(_ location: String, cookies: [String] = []) -> HTTPResponse {
        var headers = Self.headers
        headers["location"] = location
        return HTTPResponse(statusCode: 302, headers: headers, cookies: cookies)
    }

    /// An HTML answer.
    public static func response(_ status: Int, body: String?, cookies: [String] = []) -> HTTPResponse {
        var headers = Self.headers
        headers["content-type"] = "text/html; charset=utf-8"
        return HTTPResponse(statusCode: status, headers: headers, cookies: cookies, body: body)
    }

    /// A whole page: `title` (escaped here) and `body` (HTML, escaped by the caller).
    public static func page(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escaped(title))</title></head>
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
