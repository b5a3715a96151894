import HTTPEdge

/// The callback's pages: the link's button, the second factor's code, and the refusals.
enum CallbackPage {
    /// What a link's GET answers: a button that POSTs the token (a scanner does not press it).
    static func confirm(token: String) -> String {
        HTMLPage.page(
            title: "Sign in",
            body: """
                <p>Press the button to finish signing in.</p>
                <form method="post" action="email-callback">
                <input type="hidden" name="token" value="\(HTMLPage.escaped(token))">
                <button type="submit">Sign in</button>
                </form>
                """)
    }

    static let stepEnded = HTMLPage.page(
        title: "Sign in again",
        body: "<p>This sign-in has ended: the code step lasts 5 minutes, takes 3 codes, and works only in the "
            + "browser where the link was opened. Ask for a new link from the app you were signing in to.</p>")

    static let tooManyCodes = HTMLPage.page(
        title: "Too many codes",
        body: "<p>Too many wrong codes. Wait a few minutes, then ask for a new link.</p>")

    static let unknownLink = HTMLPage.page(
        title: "Link not valid",
        body: "<p>This sign-in link is not valid. Ask for a new one from the app you were signing in to.</p>")
}
