import AuthKit

/// An authorize request to the dev provider, checked as Cognito checks one: the client and its
/// registered redirect URI first (a problem there is a page, never a redirect to an unchecked
/// address), then the rest (a problem there goes back to the client as `?error=`).
struct DevAuthorizeRequest: Sendable {
    let redirectURI: String
    let state: String?
    /// The S256 challenge.
    let challenge: String
    let nonce: String?
    /// `Google` or `SignInWithApple` when the client named one (`identity_provider`).
    let providerName: String?
    /// An address that skips the page (`login_hint`), for scripts.
    let loginHint: EmailAddress?

    /// Why a request is refused.
    enum Problem: Error, Equatable {
        /// The client or redirect URI is wrong: a 400 page.
        case page(String)
        /// Sent back to the client's redirect URI as `error` and `error_description`.
        case redirect(redirectURI: String, state: String?, error: String, description: String)
    }

    /// The request `fields` (a query, or the page's form) make for client `clientID`, whose one
    /// registered redirect URI is `registeredRedirectURI`.
    init(_ fields: [String: String], clientID: String, registeredRedirectURI: String) throws(Problem) {
        guard fields["client_id"] == clientID else { throw .page("Unknown client_id.") }
        guard fields["redirect_uri"] == registeredRedirectURI else {
            throw .page("redirect_uri is not the client's registered redirect URI.")
        }
        redirectURI = registeredRedirectURI
        state = fields["state"]
        let refuse = { [state] (description: String) in
            Problem.redirect(
                redirectURI: registeredRedirectURI, state: state, error: "invalid_request", description: description)
        }
        guard fields["response_type"] == "code" else { throw refuse("response_type must be code") }
        guard fields["scope"]?.split(separator: " ").contains("openid") == true else {
            throw refuse("scope must include openid")
        }
        guard fields["code_challenge_method"] == "S256", let challenge = fields["code_challenge"],
            PKCE.isValidChallenge(challenge)
        else { throw refuse("an S256 code_challenge is required") }
        self.challenge = challenge
        nonce = fields["nonce"]
        if let named = fields["identity_provider"], !named.isEmpty {
            guard DevPerson.providers.contains(where: { $0.0 == named }) else {
                throw refuse("unknown identity_provider")
            }
            providerName = named
        } else {
            providerName = nil
        }
        loginHint = fields["login_hint"].flatMap(EmailAddress.init)
    }

    /// The request's parameters, for the page's hidden fields.
    var hiddenFields: [(String, String)] {
        var fields = [
            ("response_type", "code"), ("redirect_uri", redirectURI), ("scope", "openid email profile"),
            ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ]
        if let state { fields.append(("state", state)) }
        if let nonce { fields.append(("nonce", nonce)) }
        return fields
    }

    /// The client's redirect URI with `pairs` added to its query.
    func redirect(_ pairs: [(String, String)]) -> String {
        let all = pairs + (state.map { [("state", $0)] } ?? [])
        return redirectURI + (redirectURI.contains("?") ? "&" : "?") + FormEncoding.encode(all)
    }
}
