import HTTPEdge

/// The callback's answers: redirects and two small pages, with no script, no style and no
/// third-party asset.
enum CallbackPage {
    /// On every answer: nothing cached, no referrer (the URL carries the token).
    static let headers = [
        "cache-control": "no-store", "referrer-policy": "no-referrer", "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "content-security-policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ]

    static func redirect(_ location: String) -> HTTPResponse {
        var headers = Self.headers
        headers["location"] = location
        return HTTPResponse(statusCode: 302, headers: headers)
    }

    static func response(_ status: Int, body: String?) -> HTTPResponse {
        var headers = Self.headers
        headers["content-type"] = "text/html; charset=utf-8"
        return HTTPResponse(statusCode: status, headers: headers, body: body)
    }

    /// For a link scanner: a button that POSTs the token (the scanner does not press it).
    static func confirm(token: String) -> String {
        page(
            title: "Sign in",
            body: """
                <p>Press the button to finish signing in.</p>
                <form method="post" action="email-callback">
                <input type="hidden" name="token" value="\(escaped(token))">
                <button type="submit">Sign in</button>
                </form>
                """)
    }

    static let unknownLink = page(
        title: "Link not valid",
        body: "<p>This sign-in link is not valid. Ask for a new one from the app you were signing in to.</p>")

    private static func page(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title></head>
        <body><h1>\(title)</h1>
        \(body)
        </body></html>
        """
    }

    /// `text` for an HTML attribute value.
    static func escaped(_ text: String) -> String {
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
