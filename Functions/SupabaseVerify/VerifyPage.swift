import HTTPEdge

/// The page an emailed link's GET answers: nothing is used until its button POSTs the link back,
/// so a mail scanner, a preview or a prefetch that fetches the link spends nothing.
enum VerifyPage {
    /// A button that POSTs the link's `token`, `type` and `redirect_to` to `/auth/v1/verify`.
    static func confirm(token: String, type: String, redirectTo: String) -> String {
        let (title, button) =
            switch type {
            case "recovery": ("Reset your password", "Continue")
            case "email_change": ("Confirm this address", "Confirm address")
            case "magiclink": ("Sign in", "Sign in")
            default: ("Confirm your email", "Confirm")
            }
        return HTMLPage.page(
            title: title,
            body: """
                <p>Press the button to go on.</p>
                <form method="post" action="verify">
                <input type="hidden" name="token" value="\(HTMLPage.escaped(token))">
                <input type="hidden" name="type" value="\(HTMLPage.escaped(type))">
                <input type="hidden" name="redirect_to" value="\(HTMLPage.escaped(redirectTo))">
                <button type="submit">\(HTMLPage.escaped(button))</button>
                </form>
                """)
    }

    static let unknownLink = HTMLPage.page(
        title: "Link not valid",
        body: "<p>This link is not valid, or it has been used. Ask the app for a new one.</p>")
}
