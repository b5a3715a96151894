import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
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
/// - `GET /auth/v1/user/identities/authorize` (`linkIdentity`, through the provider's pages):
///   `feature_disabled`, not built; `linkIdentityWithIdToken` links (`SupabaseToken`).
struct SupabaseUserHandler: SupabaseHandler {
    /// The sessions it answers with, and the apps and users it reads.
    let sessions: SessionService
    /// The nonces `/reauthenticate` mails.
    let reauthentication: Reauthentication
    /// Where the changes of `PUT` are made.
    let accounts: PasswordAccounts

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        let app = try await request.supabaseApp(in: sessions.apps)
        let bearer = try await sessions.bearer(request.header("authorization"), app: app.id)
        guard let user = try await sessions.users.user(id: bearer.userID) else {
            throw AccountError.userNotFound
        }
        if request.path.contains("/user/identities") {
            return try await identities(request, of: user, for: bearer, context: context)
        }
        if request.path.hasSuffix("/reauthenticate") {
            try await reauthentication.send(to: user, app: app, sourceIP: request.sourceIP)
            context.logger.info("reauthentication sent", metadata: ["userId": .string(user.id)])
            return .json(200, [:])
        }
        guard request.method == "PUT" else { return .json(200, SupabaseJSON.user(user)) }
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
        return .json(200, SupabaseJSON.user(updated))
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

    /// `/user/identities`: an identity unlinked (`DELETE …/{identity_id}`), or linking through
    /// the provider's pages refused by name.
    private func identities(
        _ request: HTTPRequest, of user: User, for bearer: AccessTokens.Bearer, context: LambdaContext
    ) async throws -> HTTPResponse {
        guard request.method == "DELETE", let id = request.path.split(separator: "/").last.map(String.init) else {
            throw SupabaseError.featureDisabled(
                "Linking an identity through the provider's pages is not supported yet; use linkIdentityWithIdToken")
        }
        guard let entry = user.providers.keys.first(where: { SupabaseJSON.identityID(of: user, entry: $0) == id })
        else { throw AccountError.identityNotFound }
        try await IdentityLinks(sessions: sessions, reauthentication: reauthentication).unlink(
            entry, of: user, for: bearer, sourceIP: request.sourceIP)
        context.logger.info("identity unlinked", metadata: ["userId": .string(user.id)])
        return .json(200, [:])
    }
}
