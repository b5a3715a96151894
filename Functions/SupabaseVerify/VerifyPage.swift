import HTTPEdge

/// The page an emailed link's GET answers: nothing is used until its button POSTs the link back,
/// so a mail scanner, a preview or a prefetch that fetches the link spends nothing.
enum VerifyPage {
    /// A button that POSTs the link's `token`, `type` and `redirect_to` to `/auth/v1/verify`.
    /// With `asksForPassword` (an implicit-flow sign-up's link), a field for the password chosen
    /// at sign-up, which keeps it when right; left empty, the address is confirmed and the owner
    /// sets a password afterwards. `problem` says why the last press did not go through.
    static func confirm(
        token: String, type: String, redirectTo: String, asksForPassword: Bool = false, problem: String? = nil
    ) -> String {
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
                \(problem.map { "<p role=\"alert\">\(HTMLPage.escaped($0))</p>" } ?? "")
                <p>Press the button to go on.</p>
                <form method="post" action="verify">
                \(asksForPassword ? passwordField : "")
                <input type="hidden" name="token" value="\(HTMLPage.escaped(token))">
                <input type="hidden" name="type" value="\(HTMLPage.escaped(type))">
                <input type="hidden" name="redirect_to" value="\(HTMLPage.escaped(redirectTo))">
                <button type="submit">\(HTMLPage.escaped(button))</button>
                </form>
                """)
    }

    /// The optional field of a sign-up's password, and what leaving it empty does.
    static let passwordField = """
        <p><label>The password you chose when you signed up, to keep it
        <input type="password" name="password" autocomplete="current-password"></label></p>
        <p>Did not sign up, or do not remember it? Leave it empty: your address is confirmed and you
        set a password after.</p>
        """

    static let unknownLink = HTMLPage.page(
        title: "Link not valid",
        body: "<p>This link is not valid, or it has been used. Ask the app for a new one.</p>")
}
