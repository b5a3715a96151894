import GatehouseJSON
import StoreCore

extension MagicLinks {
    /// A magic link for `email` to sign in to `app`, returning to `redirectTo` (the app's,
    /// checked: `AccountError.redirectNotAllowed`), recorded as `send` records one and returned
    /// instead of mailed: the admin API's `generate_link` (behind a server key, which is what is
    /// limited: no address or source is counted here). Its click signs in as any magic link's.
    public func generate(email: EmailAddress, app: App, redirectTo: String?) async throws -> EmailedLink {
        let target = try AppRedirect.resolve(redirectTo, app: app)
        let platform: SignInPlatform = app.baseURL == nil ? .mobile : .web
        _ = try platform.callback(of: app)
        let (token, hash) = LinkToken.make()
        let expires = clock.now + lifetime
        try await record(
            hash, email: email, app: app.id, platform: platform, expires: expires,
            extras: ["redirectTo": JSONValue.string(target)])
        let code = try await codes?.issue(Self.codeSlot(app: app.id), email: email.value, link: hash, expires: expires)
        return EmailedLink(
            link: link(token, redirectTo: target), token: token, code: code, type: "magiclink", redirectTo: target)
    }
}
