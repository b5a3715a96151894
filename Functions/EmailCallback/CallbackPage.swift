import AuthKit
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

    /// The second step's page (`SecondFactorSignIn.Step`): a code field, the factor to use when
    /// the user has several, and the step's handle; its form's redirect goes to the app, so the
    /// page names the app's callback (`form-action`). The first one sets the step's cookie.
    static func codeResponse(_ step: SecondFactorSignIn.Step, status: Int) -> HTTPResponse {
        HTMLPage.response(
            status, body: code(step, wrong: status != 200), cookies: step.cookie.map { [$0] } ?? [],
            formTargets: [step.callback])
    }

    static func code(_ step: SecondFactorSignIn.Step, wrong: Bool) -> String {
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
