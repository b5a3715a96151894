import Emulator
import GatehouseJSON

/// The demo app's pages: plain HTML; the signed-in page's one script (`DemoPasskeyScript`, by
/// its hash) adds a passkey.
enum DemoPages {
    static let title = "Gatehouse demo app"

    /// `assurance`: the access token's `aal`, shown so that a second factor's sign-in can be seen.
    static func signedIn(_ user: JSONValue, isNewUser: Bool, assurance: String? = nil) -> APIResponse {
        var rows = [("Name", "name"), ("Email", "email"), ("Phone", "phone"), ("User id", "id")].compactMap {
            label, key -> String? in
            guard let value = user[key]?.stringValue else { return nil }
            return "<dt>\(label)</dt><dd>\(DevPage.escaped(value))</dd>"
        }
        if let assurance { rows.append("<dt>Assurance level</dt><dd>\(DevPage.escaped(assurance))</dd>") }
        let providers = user["providers"]?.objectValue.map { $0.keys.sorted().joined(separator: ", ") } ?? ""
        return DevPage.html(
            200, title: title,
            body: """
                <p role="status">Signed in\(isNewUser ? " with a new account" : ""), as <code>GET /users/me</code> \
                tells this app:</p>
                <dl>\(rows.joined())<dt>Signed in with</dt><dd>\(DevPage.escaped(providers))</dd></dl>
                <div id="add-passkey" hidden>
                <p><button type="button">Add a passkey</button></p>
                <p id="add-passkey-status" role="status"></p>
                </div>
                <form method="post" action="/app/auth/logout"><p><button type="submit">Sign out</button></p></form>
                <script>\(DemoPasskeyScript.source)</script>
                """, scripts: [DemoPasskeyScript.source])
    }

    static func signedOut(cookies: [String] = []) -> APIResponse {
        DevPage.html(
            200, title: title,
            body: "<p>You are signed out.</p><p><a href=\"/auth?app=demo\">Sign in</a></p>", cookies: cookies)
    }

    static func failed(_ problem: String) -> APIResponse {
        DevPage.html(
            400, title: title,
            body: "<p role=\"alert\">\(DevPage.escaped(problem))</p><p><a href=\"/auth?app=demo\">Try again</a></p>")
    }
}
