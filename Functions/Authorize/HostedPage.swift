import AuthKit
import HTTPEdge

/// The hosted sign-in page: plain HTML (one stylesheet and one script, each allowed by its hash,
/// no third-party asset), labelled fields in reading order, so it works without JavaScript, with
/// a screen reader and on a phone. The passkey's button shows only where its script runs
/// (`PasskeyScript`); the email field is also where the browser offers passkeys (`webauthn`).
enum HostedPage {
    static func signIn(_ page: HostedSignIn.Page) -> String {
        let app = HTMLPage.escaped(page.app.id)
        let platform = page.platform.rawValue
        return HTMLPage.page(
            title: "Sign in to \(page.app.name)",
            body: """
                <p><a href="auth?app=\(app)&amp;provider=apple&amp;platform=\(platform)">Continue with Apple</a></p>
                <p><a href="auth?app=\(app)&amp;provider=google&amp;platform=\(platform)">Continue with Google</a></p>
                <form method="post" action="auth">
                <p><label for="email">Email</label><br>
                <input id="email" name="email" type="email" autocomplete="username webauthn" required></p>
                <input type="hidden" name="app" value="\(app)">
                <input type="hidden" name="platform" value="\(platform)">
                <input type="hidden" name="csrf" value="\(HTMLPage.escaped(page.csrfToken))">
                <p><button type="submit">Email me a sign-in link</button></p>
                </form>
                <div id="passkey" hidden>
                <form method="post" action="auth/passkey">
                <input type="hidden" name="app" value="\(app)">
                <input type="hidden" name="platform" value="\(platform)">
                <input type="hidden" name="csrf" value="\(HTMLPage.escaped(page.csrfToken))">
                <input type="hidden" name="challenge_id" value="">
                <input type="hidden" name="credential" value="">
                <p><button type="button">Sign in with a passkey</button></p>
                </form>
                <p id="passkey-status" role="alert" hidden></p>
                </div>
                <script>\(PasskeyScript.source)</script>
                """)
    }

    /// The sign-in page's answer: its policy allows the passkey's script (by its hash, and its
    /// request to the API's own origin) and the form's redirect to the app's `callback`.
    static func signInResponse(_ page: HostedSignIn.Page, callback: String) -> HTTPResponse {
        HTMLPage.response(
            200, body: signIn(page), cookies: [page.cookie], formTargets: [callback], scripts: [PasskeyScript.source])
    }

    static let sent = HTMLPage.page(
        title: "Check your email",
        body: "<p>If the address can sign in, a link is on its way. It works once, for 15 minutes.</p>")

    static func refused(_ error: SignInError) -> HTTPResponse {
        HTMLPage.response(
            error.status,
            body: HTMLPage.page(title: "Sign-in not possible", body: "<p>\(HTMLPage.escaped(error.description))</p>"))
    }
}
