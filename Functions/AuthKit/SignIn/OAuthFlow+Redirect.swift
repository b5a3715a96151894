import JOSE

extension OAuthFlow {
    /// Supabase's `GET /auth/v1/authorize` (`signInWithOAuth`): the flow begun as `begin` begins
    /// it, for the client's challenge (`code_challenge` and `code_challenge_method`:
    /// `PKCE.flowChallenge`), to return at the callback to `redirectTo` (the app's, checked by
    /// `AppRedirect` before anything else happens; the app's own address without one) with
    /// `?code=`, a `FlowCodes` code for that challenge. Without a challenge (the implicit flow),
    /// for a web `redirectTo` only, through `ImplicitReturn`.
    /// Refusals are `SignInError.invalidField` naming the field.
    public func begin(
        app appID: String?, provider: String?, redirectTo: String?, challenge: String?, method: String?
    ) async throws -> (location: String, cookies: [String]) {
        guard let appID, let app = try await AppRegistry(store: store).app(id: appID) else {
            throw SignInError.unknownApp
        }
        let target: String
        do {
            target = try AppRedirect.resolve(redirectTo, app: app)
        } catch {
            throw SignInError.invalidField("redirect_to", "is not an address of this app")
        }
        let flowChallenge: String?
        do {
            flowChallenge = try PKCE.flowChallenge(challenge, method: method)
        } catch {
            throw SignInError.invalidField("code_challenge", error.description)
        }
        let platform: SignInPlatform = app.baseURL == nil ? .mobile : .web
        if let flowChallenge {
            return try start(
                app: app, provider: provider, platform: platform, challenge: flowChallenge, redirectTo: target)
        }
        // The implicit flow (supabase-js's default): web addresses only, on a verifier of the
        // API's own in this browser's cookie (`ImplicitReturn`).
        guard ImplicitReturn.isWeb(target) else {
            throw SignInError.invalidField(
                "code_challenge",
                "is required to return to an app's own scheme (the implicit flow is for web addresses)")
        }
        // Its return starts the session in the browser: an app that signs in only through its
        // backend gets none there, so it begins no such flow.
        guard app.redeem.contains(.public) else {
            throw SignInError.invalidField("code_challenge", "is required: this app signs in through its backend")
        }
        let verifier = RandomToken.urlSafe(byteCount: 32)
        let (location, cookies) = try start(
            app: app, provider: provider, platform: platform, challenge: PKCE.challenge(for: verifier),
            redirectTo: target, implicit: true)
        return (location, cookies + [ImplicitReturn(issuer: issuer).cookie(verifier)])
    }

    /// `/auth/v1/authorize?link=<handle>` (`IdentityLinkFlow`): the handle taken once, then the
    /// flow begun with what it holds (its app, provider, challenge and return address, checked
    /// against the app again), its `state` bound to the user who asked. `SignInError.invalidField`
    /// ("link") for a handle that is unknown, used or expired.
    public func begin(link handle: String) async throws -> (location: String, cookies: [String]) {
        let links = IdentityLinkFlow(store: store, clock: clock)
        guard let link = try await links.take(handle),
            let app = try await AppRegistry(store: store).app(id: link.app),
            let target = try? AppRedirect.resolve(link.redirectTo, app: app)
        else { throw SignInError.invalidField("link", "is unknown, used or expired; ask for a new one") }
        let state = RandomToken.urlSafe(byteCount: 24)
        let flow = try start(
            app: app, provider: link.provider, platform: app.baseURL == nil ? .mobile : .web, challenge: link.challenge,
            redirectTo: target, state: state)
        try await links.bind(state: state, to: link)
        return flow
    }

    /// The address a flow begun by Supabase's route returns to (its cookie), if it was.
    static func redirect(_ cookie: String?) -> String? {
        guard let cookie, !cookie.isEmpty, let bytes = Base64URL.decode(cookie) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
