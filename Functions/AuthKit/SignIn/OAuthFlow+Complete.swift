import GatehouseJSON
import JOSE
import StoreCore

/// The provider's token endpoint, reached over HTTPS by the function (AuthKit makes no calls).
public protocol OAuthTokenEndpoint: Sendable {
    /// POSTs the form `body` to `url` (with `authorization` as the `Authorization` header when
    /// given); the body of a 200 answer, or a thrown error.
    func post(_ url: String, form body: String, authorization: String?) async throws -> [UInt8]
}

extension OAuthFlow {
    /// Where the callback sends the browser.
    public enum Completion: Sendable, Equatable {
        /// The app's callback with `?code=…`.
        case signedIn(redirect: String)
        /// The app's callback with `?error=oauth_failed`; `reason` is for the log only.
        case failed(redirect: String, reason: String)
        /// No flow to finish (a missing cookie, a `state` that does not match): a 400 page.
        case refused(reason: String)
    }

    /// Finishes the flow the cookies (read through `cookie`) describe: the `state` checked, the
    /// provider's code exchanged (with the PKCE verifier), its `id_token` verified, the user
    /// found or created, and an auth code minted for the app (bound to the app's own challenge,
    /// when it sent one).
    public func complete(
        code: String?, state: String?, providerError: String?, cookie: (String) -> String?,
        tokens: some OAuthTokenEndpoint, idTokens: ProviderTokenVerifier
    ) async throws -> Completion {
        guard let expected = cookie("gh_oauth_state"), let state, ConstantTime.equal(expected, state),
            let verifier = cookie("gh_oauth_verifier"), let provider = cookie("gh_oauth_provider")
        else { return .refused(reason: "state_mismatch") }
        let platform = try SignInPlatform(cookie("gh_oauth_platform"))
        guard let app = try? await MagicLinks.app(cookie("gh_oauth_app"), on: platform, store: store) else {
            return .refused(reason: "unknown_app")
        }
        let callback = try platform.callback(of: app)
        let failure = { (reason: String) in
            Completion.failed(redirect: "\(callback)?error=oauth_failed", reason: reason)
        }
        if let providerError { return failure("provider_error:\(providerError.prefix(64))") }
        guard let code, !code.isEmpty else { return failure("missing_code") }
        let claims: LazyJSONObject
        do {
            claims = try await idToken(code: code, verifier: verifier, tokens: tokens, idTokens: idTokens)
        } catch let error as SignInError {
            return failure("\(error.code):\(error)")
        } catch {
            return failure("token_exchange_failed:\(error)")
        }
        guard let subject = claims["sub"]?.stringValue else { return failure("missing_subject") }
        let email = claims["email"]?.stringValue.flatMap(EmailAddress.init)
        let verified = ProviderTokenVerifier.flag(claims["email_verified"])
        let (user, isNew) = try await UserDirectory(store: store, clock: clock).findOrCreate(
            provider: provider, subject: subject, verifiedEmail: verified ? email : nil,
            name: claims["name"]?.stringValue)
        let authCode = try await AuthCodes(store: store, clock: clock).mint(
            app: app.id, user: user, provider: provider, isNewUser: isNew, codeChallenge: cookie("gh_oauth_challenge"))
        return .signedIn(redirect: "\(callback)?code=\(authCode)")
    }

    /// The verified claims of the `id_token` the provider gives for `code`.
    private func idToken(
        code: String, verifier: String, tokens: some OAuthTokenEndpoint, idTokens: ProviderTokenVerifier
    ) async throws -> LazyJSONObject {
        let form = FormEncoding.encode([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", callbackURL),
            ("client_id", settings.clientID), ("code_verifier", verifier),
        ])
        // RFC 6749 §2.3.1: the id and secret form-encoded, then joined and base64-encoded.
        let authorization = settings.clientSecret.map { secret in
            "Basic " + FormEncoding.base64("\(FormEncoding.escape(settings.clientID)):\(FormEncoding.escape(secret))")
        }
        let answer = try await tokens.post(settings.tokenURL, form: form, authorization: authorization)
        guard case .object(let members)? = try? JSONValue(parsing: answer),
            case .string(let token)? = members["id_token"]
        else { throw SignInError.tokenRefused("no_id_token") }
        let verified = try await idTokens.verify(token)
        if let use = verified.claims["token_use"], use != .string("id") {
            throw SignInError.tokenRefused("wrong_token_use")
        }
        return verified.claims
    }
}
