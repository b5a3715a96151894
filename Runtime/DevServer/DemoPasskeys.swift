import AuthKit
import Emulator
import GatehouseJSON

/// The demo app's backend for "Add a passkey": `POST /app/passkeys/options` and
/// `POST /app/passkeys/verify` (JSON from the page's script, `DemoPasskeyScript`), passed on to
/// Supabase's `POST /auth/v1/passkeys/registration/options` and `…/verify` with the browser's
/// session's access token and the demo app's publishable key, as an app's server would: the
/// tokens never reach the page. Only a post from the demo app's own origin (`Origin`, or
/// `Sec-Fetch-Site: same-origin`) with the session's cookie is passed on; the answer is
/// Gatehouse's, as it is.
struct DemoPasskeys {
    /// The demo app's origin (`BrowserPost.origin` of its base URL).
    let origin: String
    /// The demo app's publishable key (Supabase's `apikey`); nil when the app has none.
    let publishableKey: String?

    /// Whether `path` is one of these routes.
    static func serves(_ path: String) -> Bool { path == "/app/passkeys/options" || path == "/app/passkeys/verify" }

    /// Passes `request` on for the session's `accessToken` (nil: nobody is signed in).
    func answer(
        _ request: DevRequest, body: [UInt8], accessToken: String?, gateway: LocalAPIGateway
    ) async
        -> APIResponse
    {
        guard
            BrowserPost.isSameOrigin(
                origin: request.header("origin"), fetchSite: request.header("sec-fetch-site"), expected: origin)
        else { return DevPage.json(403, ["msg": "Only the demo app's page may ask."]) }
        guard let accessToken else { return DevPage.json(401, ["msg": "Nobody is signed in."]) }
        guard let publishableKey else { return DevPage.json(501, ["msg": "The demo app has no publishable key."]) }
        let step = request.path.hasSuffix("/options") ? "options" : "verify"
        var answer = await gateway.handle(
            APIRequest(
                method: "POST", rawPath: "/auth/v1/passkeys/registration/\(step)",
                headers: [
                    ("content-type", "application/json"), ("apikey", publishableKey),
                    ("authorization", "Bearer \(accessToken)"),
                ],
                body: step == "options" ? Array("{}".utf8) : Array(body.prefix(64 * 1024))))
        answer.headers.removeAll { $0.name.lowercased() == "set-cookie" }
        return answer
    }
}
