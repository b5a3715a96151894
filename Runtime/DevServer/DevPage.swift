import Emulator
import GatehouseJSON
import HTTPEdge

/// The dev routes' answers: HTML pages and redirects with the sign-in pages' headers (no cache,
/// no frame, no referrer, no script but a page's own by its hash), and JSON for the provider's endpoints.
enum DevPage {
    /// An HTML page: `title` is escaped here, `body` is HTML the caller escaped.
    /// `scripts`: the inline scripts `body` holds, allowed by their hashes.
    static func html(
        _ status: Int, title: String, body: String, cookies: [String] = [], scripts: [String] = []
    ) -> APIResponse {
        var response = APIResponse(
            status: status, headers: headers(cookies, scripts: scripts), body: Array(page(title, body).utf8))
        response.headers.append(.init("content-type", "text/html; charset=utf-8"))
        return response
    }

    /// A redirect: 302, or 303 after a form's POST.
    static func redirect(_ location: String, status: Int = 302, cookies: [String] = []) -> APIResponse {
        APIResponse(status: status, headers: headers(cookies) + [.init("location", location)])
    }

    /// A JSON answer that no cache keeps.
    static func json(_ status: Int, _ value: [String: JSONValue]) -> APIResponse {
        APIResponse(
            status: status,
            headers: [
                .init("content-type", "application/json"), .init("cache-control", "no-store"),
                .init("pragma", "no-cache"),
            ],
            body: Array(JSONValue.object(value).serialized.utf8))
    }

    /// A 400 page that names the problem and nothing secret.
    static func refused(_ problem: String) -> APIResponse {
        html(400, title: "Request refused", body: "<p>\(escaped(problem))</p>")
    }

    static func escaped(_ text: String) -> String { HTMLPage.escaped(text) }

    private static func headers(_ cookies: [String], scripts: [String] = []) -> [APIResponse.HeaderLine] {
        let policy = scripts.isEmpty ? HTMLPage.headers : HTMLPage.headers(formTargets: [], scripts: scripts)
        return policy.sorted { $0.key < $1.key }.map { APIResponse.HeaderLine($0.key, $0.value) }
            + cookies.map { APIResponse.HeaderLine("set-cookie", $0) }
    }

    private static func page(_ title: String, _ body: String) -> String {
        HTMLPage.page(title: title, body: body)
    }
}
