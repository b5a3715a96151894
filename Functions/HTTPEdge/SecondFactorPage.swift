import AuthKit

/// The hosted sign-in's second step's page (`SecondFactorSignIn.Step`), answered by the magic
/// link's button (`EmailCallback`) and by the OAuth callback (`OAuthCallback`): its form posts
/// to `/auth/email-callback`, which both pages' addresses (under `/auth/`) reach as
/// `email-callback`.
public enum SecondFactorPage {
    /// The second step's page (`SecondFactorSignIn.Step`): a code field, the factor to use when
    /// the user has several, and the step's handle; its form's redirect goes to the app, so the
    /// page names the app's callback (`form-action`). The first one sets the step's cookie.
    public static func response(_ step: SecondFactorSignIn.Step, status: Int) -> HTTPResponse {
        HTMLPage.response(
            status, body: page(step, wrong: status != 200), cookies: step.cookie.map { [$0] } ?? [],
            formTargets: [step.callback])
    }

    static func page(_ step: SecondFactorSignIn.Step, wrong: Bool) -> String {
        let notice =
            wrong
            ? "<p>That code did not work. \(step.triesLeft) \(step.triesLeft == 1 ? "try" : "tries") left.</p>\n" : ""
        let choices =
            step.factors.count < 2
            ? ""
            : "<fieldset><legend>Authenticator</legend>\n"
                + step.factors.enumerated().map { index, factor in
                    let id = HTMLPage.escaped(factor.id)
                    let name = HTMLPage.escaped(factor.name.isEmpty ? "Authenticator \(index + 1)" : factor.name)
                    return "<p><input type=\"radio\" id=\"f\(index)\" name=\"factor\" value=\"\(id)\""
                        + "\(index == 0 ? " checked" : "")> <label for=\"f\(index)\">\(name)</label></p>\n"
                }.joined() + "</fieldset>\n"
        return HTMLPage.page(
            title: "Enter your authenticator code",
            body: """
                \(notice)<p>Open your authenticator app and enter the 6-digit code it shows for this account.</p>
                <form method="post" action="email-callback">
                <p><label for="code">Code</label><br>
                <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required></p>
                \(choices)<input type="hidden" name="pending" value="\(HTMLPage.escaped(step.handle))">
                <button type="submit">Continue</button>
                </form>
                """)
    }
}
