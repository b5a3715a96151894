import AuthKit
import Emulator

extension DevOIDCProvider {
    /// `/oauth2/authorize`: the sign-in page (GET), or a code for the person the page's form
    /// (POST) or `login_hint` names, sent to the client's redirect URI.
    func authorize(_ fields: [String: String], request: DevRequest) -> APIResponse {
        let authorize: DevAuthorizeRequest
        do {
            authorize = try DevAuthorizeRequest(fields, clientID: Self.clientID, registeredRedirectURI: redirectURI)
        } catch {
            return refusal(error)
        }
        if request.method == "POST" {
            // A script may post without an Origin; a browser's post must come from this page.
            let origin = request.header("origin")
            guard
                origin == nil
                    || BrowserPost.isSameOrigin(
                        origin: origin, fetchSite: request.header("sec-fetch-site"), expected: baseURL)
            else {
                return DevPage.refused("The form was posted from another site.")
            }
            if fields["cancel"] != nil { return DevPage.redirect(authorize.redirect([("error", "access_denied")])) }
            guard let email = fields["email"].flatMap(EmailAddress.init) else {
                return DevPage.html(400, title: "Sign in", body: form(authorize, problem: "Enter an email address."))
            }
            let provider = fields["provider"] ?? authorize.providerName ?? "Google"
            guard DevPerson.providers.contains(where: { $0.0 == provider }) else {
                return DevPage.refused("Unknown provider.")
            }
            return signIn(authorize, as: DevPerson(email: email, name: fields["name"], providerName: provider))
        }
        if let hint = authorize.loginHint {
            return signIn(
                authorize, as: DevPerson(email: hint, name: nil, providerName: authorize.providerName ?? "Google"))
        }
        return DevPage.html(200, title: "Dev sign-in", body: form(authorize, problem: nil))
    }

    private func signIn(_ authorize: DevAuthorizeRequest, as person: DevPerson) -> APIResponse {
        DevPage.redirect(authorize.redirect([("code", issue(for: authorize, person: person))]), status: 302)
    }

    private func refusal(_ problem: DevAuthorizeRequest.Problem) -> APIResponse {
        switch problem {
        case .page(let text): return DevPage.refused(text)
        case .redirect(let uri, let state, let error, let description):
            var pairs = [("error", error), ("error_description", description)]
            if let state { pairs.append(("state", state)) }
            return DevPage.redirect(uri + "?" + FormEncoding.encode(pairs))
        }
    }

    /// The page's form: email, name and provider, the request's parameters carried along.
    private func form(_ authorize: DevAuthorizeRequest, problem: String?) -> String {
        let hidden = authorize.hiddenFields.map {
            "<input type=\"hidden\" name=\"\(DevPage.escaped($0.0))\" value=\"\(DevPage.escaped($0.1))\">"
        }
        let chosen = authorize.providerName ?? "Google"
        let options = DevPerson.providers.map { name, label in
            "<option value=\"\(name)\"\(name == chosen ? " selected" : "")>\(label)</option>"
        }
        return """
            <p>This is Gatehouse's development sign-in provider, standing in for Cognito's hosted \
            UI and the providers behind it. Anyone can sign in here as anyone: it only runs inside \
            <code>gatehouse start-api</code>.</p>
            \(problem.map { "<p role=\"alert\">\(DevPage.escaped($0))</p>" } ?? "")
            <form method="post" action="\(Self.pathPrefix)/oauth2/authorize">
            <p><label for="email">Email</label><br>
            <input id="email" name="email" type="email" autocomplete="email" required></p>
            <p><label for="name">Name (optional)</label><br>
            <input id="name" name="name" type="text" autocomplete="name"></p>
            <p><label for="provider">Sign in as a user of</label><br>
            <select id="provider" name="provider">\(options.joined())</select></p>
            <input type="hidden" name="client_id" value="\(Self.clientID)">
            \(hidden.joined(separator: "\n"))
            <p><button type="submit">Sign in</button> <button type="submit" name="cancel" value="1" formnovalidate>Cancel</button></p>
            </form>
            """
    }
}
