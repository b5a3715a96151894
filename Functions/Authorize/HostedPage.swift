import AuthKit
import HTTPEdge

/// The hosted sign-in page: plain HTML (no script, no style, no third-party asset), labelled
/// fields in reading order, so it works without JavaScript, with a screen reader and on a phone.
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
                <input id="email" name="email" type="email" autocomplete="email" required></p>
                <input type="hidden" name="app" value="\(app)">
                <input type="hidden" name="platform" value="\(platform)">
                <input type="hidden" name="csrf" value="\(HTMLPage.escaped(page.csrfToken))">
                <p><button type="submit">Email me a sign-in link</button></p>
                </form>
                """)
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
