import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import PasskeyKit
import SupabaseEdge

/// Supabase's passkey routes (supabase-swift's `AuthClient+Passkey`), with the app's `apikey`:
/// - `POST /auth/v1/passkeys/authentication/options` (no session): `{challenge_id, options,
///   expires_at}`, the W3C request options of a username-less sign-in;
/// - `POST …/authentication/verify` `{challenge_id, credential}`: a session, as every sign-in
///   answers (`aal2`, `amr` `webauthn` and `passkey`);
/// - with the access token: `POST …/registration/options`, `POST …/registration/verify`
///   `{challenge_id, credential}` (the new passkey), `GET /auth/v1/passkeys` (the user's),
///   `PATCH /auth/v1/passkeys/{id}` `{friendly_name}`, `DELETE /auth/v1/passkeys/{id}` (204);
/// - the hosted page's `POST /auth/passkey/options` and `POST /auth/passkey` (`HostedPasskeys`).
///
/// The checks are `PasskeyCeremonies`'; refusals are answered in supabase/auth's codes
/// (`SupabaseError(passkey:)`), and a refused credential's reason is logged, never the
/// credential, the challenge or the key.
struct SupabasePasskeysHandler: SupabaseHandler {
    /// The sessions it starts and checks, and the apps and users it reads.
    let sessions: SessionService
    /// The ceremonies and the user's passkeys.
    let ceremonies: PasskeyCeremonies

    /// The hosted page's passkey routes (`/auth/passkey…`), which answer the browser, not an app.
    let hosted: HostedPasskeys

    func handle(_ request: HTTPRequest, context: LambdaContext) async throws -> HTTPResponse {
        if HostedPasskeys.serves(request) { return try await hosted.handle(request, context: context) }
        let app = try await request.supabaseApp(in: sessions.apps)
        do {
            if request.path.contains("/passkeys/authentication/") {
                return try await signIn(request, app: app, context: context)
            }
            let bearer = try await sessions.bearer(request.header("authorization"), app: app.id)
            guard let user = try await sessions.users.user(id: bearer.userID) else { throw AccountError.userNotFound }
            if request.path.contains("/passkeys/registration/") {
                return try await register(request, user: user, bearer: bearer, app: app, context: context)
            }
            return try await manage(request, user: user, bearer: bearer, context: context)
        } catch let error as PasskeyError {
            if case .verificationFailed(let reason) = error {
                context.logger.info("passkey refused", metadata: ["reason": .string(reason)])
            }
            throw SupabaseError(passkey: error)
        }
    }

    /// `…/authentication/options` and `…/verify`.
    private func signIn(_ request: HTTPRequest, app: App, context: LambdaContext) async throws -> HTTPResponse {
        guard request.method == "POST" else { throw SupabaseError.validation("passkey sign-in is POST only") }
        if request.path.hasSuffix("/options") {
            return .json(200, Self.begun(try await ceremonies.beginSignIn(app: app, sourceIP: request.sourceIP)))
        }
        let (challengeID, credential) = try Self.answer(request)
        let (user, session) = try await ceremonies.finishSignIn(
            challengeID: challengeID, credential: credential, app: app, sourceIP: request.sourceIP)
        context.logger.info("signed in with a passkey", metadata: ["userId": .string(user.id)])
        return try await sessions.supabaseAnswer(session, user: user)
    }

    /// `…/registration/options` and `…/verify`.
    private func register(
        _ request: HTTPRequest, user: User, bearer: AccessTokens.Bearer, app: App, context: LambdaContext
    ) async throws -> HTTPResponse {
        guard request.method == "POST" else { throw SupabaseError.validation("passkey registration is POST only") }
        if request.path.hasSuffix("/options") {
            return .json(
                200,
                Self.begun(
                    try await ceremonies.beginRegistration(
                        for: user, bearer: bearer, app: app, sourceIP: request.sourceIP)))
        }
        let (challengeID, credential) = try Self.answer(request)
        let passkey = try await ceremonies.finishRegistration(
            challengeID: challengeID, credential: credential, user: user, bearer: bearer, app: app)
        context.logger.info(
            "passkey registered", metadata: ["userId": .string(user.id), "passkeyId": .string(passkey.id)])
        return .json(200, SupabaseJSON.passkey(passkey))
    }

    /// `GET /passkeys`, `PATCH` and `DELETE /passkeys/{id}`.
    private func manage(
        _ request: HTTPRequest, user: User, bearer: AccessTokens.Bearer, context: LambdaContext
    ) async throws -> HTTPResponse {
        let passkeys = ceremonies.passkeys
        let id = request.pathParameters["id"]
        switch (request.method, id) {
        case ("GET", nil):
            return .json(200, .array(try await passkeys.list(userID: user.id).map(SupabaseJSON.passkey)))
        case ("PATCH", let id?):
            let name = try JSONRequestBody.supabase(request).string(
                "friendly_name", maximumLength: Passkeys.maximumNameLength * 4)
            return .json(200, SupabaseJSON.passkey(try await passkeys.rename(id, userID: user.id, to: name)))
        case ("DELETE", let id?):
            try await ceremonies.remove(id, of: user, bearer: bearer)
            context.logger.info("passkey removed", metadata: ["userId": .string(user.id), "passkeyId": .string(id)])
            return HTTPResponse(statusCode: 204)
        default:
            throw SupabaseError.validation("\(request.method) is not a passkey route here")
        }
    }

    /// A ceremony's beginning as supabase/auth answers it.
    static func begun(_ begun: PasskeyCeremonies.Begun) -> JSONValue {
        [
            "challenge_id": .string(begun.challenge.id), "options": begun.options,
            "expires_at": .number(begun.challenge.expiresAt.rounded(.down)),
        ]
    }

    /// A verify's `{challenge_id, credential}` (the credential's members are bounded by
    /// `CredentialResponse` as it reads them).
    static func answer(_ request: HTTPRequest) throws -> (String, JSONValue) {
        let body = try JSONRequestBody(request, maximumBytes: 64 * 1024)
        let challengeID = try body.string("challenge_id", maximumLength: 64)
        guard case .object? = body.object["credential"], let credential = body.object["credential"] else {
            throw SupabaseError.validation("credential is required")
        }
        return (challengeID, credential)
    }
}
