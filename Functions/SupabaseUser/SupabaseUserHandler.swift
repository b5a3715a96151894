import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import PasskeyKit
import SupabaseEdge

/// With the app's `apikey` and the access token:
/// - `GET /auth/v1/user`: the user;
/// - `PUT /auth/v1/user` `{password?, data?, email?, phone?, nonce?}` (`?redirect_to=`): the
///   user after the changes. A new password, address or number needs a session less than
///   `RECENT_SIGN_IN_SECONDS` old or the `nonce` `/reauthenticate` mailed; a new password ends
///   the user's other sessions; a new address changes once both addresses confirm it; a new
///   number once the code texted to it is typed (`verifyOTP(type: .phoneChange)`);
/// - `GET` or `POST /auth/v1/reauthenticate`: mails that nonce to the user's address, `{}`;
/// - `DELETE /auth/v1/user/identities/{identity_id}` (`unlinkIdentity`): the provider identity
///   of that `identity_id` unlinked and the sessions it started ended (`IdentityLinks.unlink`:
///   a recent sign-in's, as linking), `{}`; the user's only identity is
///   422 `single_identity_not_deletable`, an unknown one 422 `identity_not_found`, the address
///   or number `feature_disabled` (not built);
/// - `GET /auth/v1/user/identities/authorize` (`linkIdentity`, through the provider's pages,
///   the PKCE flow): the URL that begins it (`IdentityLinkFlow`); the exchange of its code links;
/// - `/auth/v1/factors…` (`auth.mfa`): TOTP, phone and WebAuthn factors enrolled, challenged
///   (a phone factor's code texted, a WebAuthn factor's W3C options), verified (the session raised to `aal2`) and unenrolled
///   (`factorRoute`); `GET`/`PUT /user` list them;
/// - `POST /auth/v1/factors/recovery…`: recovery codes used or regenerated (`recoveryRoute`,
///   Gatehouse's own).
struct SupabaseUserHandler: SupabaseHandler {
    /// The sessions it answers with, and the apps and users it reads.
    let sessions: SessionService
    /// The nonces `/reauthenticate` mails.
    let reauthentication: Reauthentication
    /// Where the changes of `PUT` are made.
    let accounts: PasswordAccounts
    /// The API's public base URL (`ISSUER`): where a link's URL begins.
    let issuer: String
    /// The user's second factors.
    let factors: Factors
    /// Its phone factors, texted through the phone sign-in's codes; nil where those are off.
    let phoneFactors: PhoneFactors?
    /// Its WebAuthn factors; nil where they are off (`MFA_WEBAUTHN_FACTORS`, the default).
    var webAuthnFactors: WebAuthnFactors? = nil

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: sessions.apps)
        let bearer = try await sessions.bearer(request.header("authorization"), app: app.id)
        guard let user = try await sessions.users.user(id: bearer.userID) else {
            throw AccountError.userNotFound
        }
        if request.path.contains("/factors") {
            return try await factorRoute(request, of: user, for: bearer, context: context)
        }
        if request.path.contains("/user/identities") {
            return try await identities(request, of: user, for: bearer, context: context)
        }
        if request.path.hasSuffix("/reauthenticate") {
            try await reauthentication.send(to: user, app: app, sourceIP: request.sourceIP)
            context.logger.info("reauthentication sent", metadata: ["userId": .string(user.id)])
            return .json(200, [:])
        }
        guard request.method == "PUT" else {
            return .json(200, SupabaseJSON.user(user, factors: try await factors.list(userID: user.id)))
        }
        let body = try JSONRequestBody.supabase(request)
        let changes = AccountChanges(
            password: try body.optionalString("password", maximumLength: 1024),
            metadata: try body.optionalObject("data"),
            email: try body.optionalString("email", maximumLength: 320),
            phone: try Self.newPhone(body, of: user, changesOn: accounts.phoneChanges != nil),
            nonce: try body.optionalString("nonce", maximumLength: 16))
        let updated = try await accounts.update(
            changes, to: user, for: bearer, redirectTo: request.redirectTo, sourceIP: request.sourceIP)
        context.logger.info("user updated", metadata: ["userId": .string(updated.id)])
        return .json(200, SupabaseJSON.user(updated, factors: try await factors.list(userID: updated.id)))
    }

    /// The body's `phone` (with or without its `+`), when it is not the user's own: the number
    /// to move to (`PhoneChanges`), or `phone_provider_disabled` where phone codes are off.
    static func newPhone(_ body: JSONRequestBody, of user: User, changesOn: Bool) throws -> PhoneNumber? {
        guard let text = try body.optionalString("phone", maximumLength: 32), !text.isEmpty else { return nil }
        let phone = try body.phone()
        guard phone.value != user.phone else { return nil }
        guard changesOn else { throw SupabaseError.phoneDisabled }
        return phone
    }

    /// `GET /user/identities/authorize?provider=…&redirect_to=…&code_challenge=…&skip_http_redirect=`
    /// (`linkIdentity`): the URL that begins the link through the provider's pages
    /// (`IdentityLinkFlow`), as `{url}` or a 302 to it. The PKCE flow only: its verifier is what
    /// keeps a link URL opened by another browser from linking anything.
    private func startLink(_ request: HTTPRequest, for bearer: AccessTokens.Bearer) async throws -> HTTPResponse {
        let query = request.queryParameters
        let provider = query["provider"] ?? ""
        guard OAuthFlow.providers[provider] != nil else {
            throw SupabaseError.validation("Unsupported provider: \(provider.prefix(32)) could not be found")
        }
        guard let challenge = try PKCE.flowChallenge(query["code_challenge"], method: query["code_challenge_method"])
        else { throw SupabaseError.validation("linkIdentity needs the PKCE flow (code_challenge)") }
        guard let app = try await sessions.apps.app(id: bearer.app) else { throw AccountError.userNotFound }
        let handle = try await IdentityLinks(sessions: sessions, reauthentication: reauthentication).startLink(
            for: bearer, app: app, provider: provider, redirectTo: request.redirectTo, challenge: challenge,
            sourceIP: request.sourceIP)
        let url = "\(issuer)/auth/v1/authorize?\(FormEncoding.encode([("link", handle)]))"
        guard query["skip_http_redirect"] == "true" else { return HTMLPage.redirect(url, cookies: []) }
        return .json(200, ["url": .string(url)])
    }

    /// `/user/identities`: an identity unlinked (`DELETE …/{identity_id}`), or linking through
    /// the provider's pages refused by name.
    private func identities(
        _ request: HTTPRequest, of user: User, for bearer: AccessTokens.Bearer, context: LambdaContext
    ) async throws -> HTTPResponse {
        if request.method == "GET", request.path.hasSuffix("/authorize") {
            return try await startLink(request, for: bearer)
        }
        guard request.method == "DELETE", let id = request.path.split(separator: "/").last.map(String.init) else {
            throw SupabaseError.validation("unlinkIdentity needs DELETE /user/identities/{identity_id}")
        }
        guard let entry = user.providers.keys.first(where: { SupabaseJSON.identityID(of: user, entry: $0) == id })
        else { throw AccountError.identityNotFound }
        try await IdentityLinks(sessions: sessions, reauthentication: reauthentication).unlink(
            entry, of: user, for: bearer, sourceIP: request.sourceIP)
        context.logger.info("identity unlinked", metadata: ["userId": .string(user.id)])
        return .json(200, [:])
    }
}
