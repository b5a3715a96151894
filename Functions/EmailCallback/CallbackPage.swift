import HTTPEdge

/// The callback's two pages.
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

    static let unknownLink = HTMLPage.page(
        title: "Link not valid",
        body: "<p>This sign-in link is not valid. Ask for a new one from the app you were signing in to.</p>")
}
