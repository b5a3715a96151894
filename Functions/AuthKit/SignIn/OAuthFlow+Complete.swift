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
        /// The hosted sign-in's user has a verified second factor: the page asking for its code.
        case secondFactor(SecondFactorSignIn.Step)
    }

    /// Finishes the flow the cookies (read through `cookie`) describe: the `state` checked, the
    /// provider's code exchanged (with the PKCE verifier), its `id_token` verified, the user
    /// found or created, and an auth code minted for the app (bound to the app's own challenge,
    /// when it sent one). A flow begun by Supabase's `/auth/v1/authorize` returns to its
    /// `redirect_to` with a `FlowCodes` code for the client's challenge. With `secondFactor`
    /// (the callback's), a hosted sign-in's user with a verified TOTP factor gets its second
    /// step instead of the auth code (`SecondFactorSignIn`); a flow of Supabase's route returns
    /// at `aal1`, for its client to step up.
    public func complete(
        code: String?, state: String?, providerError: String?, cookie: (String) -> String?,
        tokens: some OAuthTokenEndpoint, idTokens: ProviderTokenVerifier, secondFactor: SecondFactorSignIn? = nil
    ) async throws -> Completion {
        try await withoutActuallyEscaping(cookie) { set in
            try await complete(
                code: code, state: state, providerError: providerError, named: { set(cookieName($0)) },
                tokens: tokens, idTokens: idTokens, secondFactor: secondFactor)
        }
    }

    /// `complete`, with each cookie read by its plain name (`cookieName` maps it).
    private func complete(
        code: String?, state: String?, providerError: String?, named cookie: (String) -> String?,
        tokens: some OAuthTokenEndpoint, idTokens: ProviderTokenVerifier, secondFactor: SecondFactorSignIn?
    ) async throws -> Completion {
        guard let expected = cookie("gh_oauth_state"), let state, ConstantTime.equal(expected, state),
            let verifier = cookie("gh_oauth_verifier"), let provider = cookie("gh_oauth_provider")
        else { return .refused(reason: "state_mismatch") }
        // The cookie is the browser's to change: only a provider the flow begins with names the
        // session's method.
        guard Self.providers[provider] != nil else { return .refused(reason: "unknown_provider") }
        let platform = try SignInPlatform(cookie("gh_oauth_platform"))
        guard let app = try? await MagicLinks.app(cookie("gh_oauth_app"), on: platform, store: store) else {
            return .refused(reason: "unknown_app")
        }
        let back = try returnAddress(cookie: cookie, app: app, platform: platform)
        guard let back else { return .refused(reason: "redirect_not_allowed") }
        let failure = { (reason: String) in Completion.failed(redirect: back.failure, reason: reason) }
        if let providerError { return failure("provider_error:\(providerError.prefix(64))") }
        guard let code, !code.isEmpty else { return failure("missing_code") }
        let identity: OIDCIdentity
        do {
            identity = try await idToken(code: code, verifier: verifier, tokens: tokens, idTokens: idTokens)
        } catch let error as SignInError {
            return failure("\(error.code):\(LogSafe.description(of: error))")
        } catch {
            return failure("token_exchange_failed:\(LogSafe.description(of: error))")
        }
        let challenge = cookie("gh_oauth_challenge").flatMap { $0.isEmpty ? nil : $0 }
        if let bound = try await IdentityLinkFlow(store: store, clock: clock).takeBound(state: state) {
            return try await linked(
                .provider(provider, subject: identity.subject), bound: bound, app: app, provider: provider,
                failure: failure)
        }
        let (user, isNew) = try await UserDirectory(store: store, clock: clock).findOrCreate(
            provider: provider, subject: identity.subject, verifiedEmail: identity.verifiedEmail, name: identity.name)
        if back.isFlow, let challenge {
            let flowCode = try await FlowCodes(store: store, clock: clock).mint(
                user: user, app: app.id, provider: provider, challenge: challenge)
            return .signedIn(redirect: AppRedirect.adding([("code", flowCode)], to: back.target))
        }
        if let step = try await secondFactor?.begin(
            user: user, app: app.id, callback: back.target, provider: provider, isNewUser: isNew,
            codeChallenge: challenge)
        {
            return .secondFactor(step)
        }
        let authCode = try await AuthCodes(store: store, clock: clock).mint(
            app: app.id, user: user, provider: provider, isNewUser: isNew, codeChallenge: challenge)
        return .signedIn(redirect: "\(back.target)?code=\(authCode)")
    }

    /// A link's callback (`IdentityLinkFlow`): nobody signed in; a flow code for the user who
    /// asked, carrying `identity`, which its exchange links. The binding (in the store, found by
    /// the flow's `state`) gives the challenge and the return address, whatever the cookies say;
    /// it must be of this flow's app and provider.
    private func linked(
        _ identity: SignInIdentity, bound: IdentityLinkFlow.Start, app: App, provider: String,
        failure: (String) -> Completion
    ) async throws -> Completion {
        guard bound.app == app.id, bound.provider == provider,
            let target = try? AppRedirect.resolve(bound.redirectTo, app: app)
        else { return .refused(reason: "link_mismatch") }
        guard let user = try await UserDirectory(store: store, clock: clock).user(id: bound.userID) else {
            return failure("link_user_gone")
        }
        let code = try await FlowCodes(store: store, clock: clock).mint(
            user: user, app: app.id, provider: provider, challenge: bound.challenge, linking: identity)
        return .signedIn(redirect: AppRedirect.adding([("code", code)], to: target))
    }

    /// Where the flow returns: the app's callback for `platform`; for a flow begun by Supabase's
    /// route, the address in its cookie, checked against the app again (nil when it is not the
    /// app's, or the flow has no challenge), with Supabase's error shape for a failure.
    private func returnAddress(
        cookie: (String) -> String?, app: App, platform: SignInPlatform
    ) throws -> (target: String, failure: String, isFlow: Bool)? {
        guard let stored = cookie("gh_oauth_redirect"), !stored.isEmpty else {
            let callback = try platform.callback(of: app)
            return (callback, "\(callback)?error=oauth_failed", false)
        }
        guard let redirect = Self.redirect(stored), cookie("gh_oauth_challenge")?.isEmpty == false,
            let target = try? AppRedirect.resolve(redirect, app: app)
        else { return nil }
        let error = [
            ("error", "access_denied"), ("error_code", "oauth_failed"),
            ("error_description", "The sign-in at the provider did not succeed"),
        ]
        let failure = AppRedirect.adding(error, to: target)
        // The implicit flow: its code goes to the API's own return route, never to the app.
        guard cookie("gh_oauth_implicit") == "1" else { return (target, failure, true) }
        guard ImplicitReturn.isWeb(target) else { return nil }
        return (
            ImplicitReturn(issuer: issuer).returnURL(app: app.id, redirectTo: target),
            ImplicitReturn.failure(error, to: target), true
        )
    }

    /// The identity in the `id_token` the provider gives for `code`, verified (`OIDCIdentity`).
    private func idToken(
        code: String, verifier: String, tokens: some OAuthTokenEndpoint, idTokens: ProviderTokenVerifier
    ) async throws -> OIDCIdentity {
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
        return try await idTokens.identity(token)
    }
}
