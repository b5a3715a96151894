import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import PasskeyKit
import SupabaseEdge

extension SupabaseUserHandler {
    /// `POST /factors` `{factor_type: "webauthn", friendly_name?}`: a WebAuthn factor,
    /// unverified, as supabase/auth answers it (`{id, type, friendly_name}`), with
    /// `recovery_codes` at the user's first enrolment. Off (the default), 422
    /// `mfa_webauthn_enroll_not_enabled`, as Supabase's with `MFA_WEB_AUTHN_ENROLL_ENABLED` off.
    func enrollWebAuthn(
        _ body: JSONRequestBody, of user: User, for bearer: AccessTokens.Bearer, context: LambdaContext
    ) async throws -> HTTPResponse {
        guard let webAuthnFactors else {
            throw SupabaseError(
                status: 422, code: "mfa_webauthn_enroll_not_enabled", message: "MFA enroll is disabled for WebAuthn")
        }
        let (factor, recoveryCodes) = try await webAuthnFactors.enroll(
            friendlyName: try body.optionalString("friendly_name", maximumLength: 256) ?? "", for: user, bearer: bearer)
        context.logger.info("factor enrolled", metadata: ["userId": .string(user.id), "factorId": .string(factor.id)])
        var answer: [String: JSONValue] = [
            "id": .string(factor.id), "type": .string(factor.type), "friendly_name": .string(factor.friendlyName),
        ]
        if !recoveryCodes.isEmpty { answer["recovery_codes"] = .array(recoveryCodes.map(JSONValue.string)) }
        return .json(200, .object(answer))
    }

    /// `POST /factors/{id}/challenge` `{webauthn?: {rp_id?, rp_origins?}}` of a WebAuthn factor:
    /// `{id, type, expires_at, webauthn: {type, credential_options}}`, `type` `create` while the
    /// factor is unverified and `request` once verified. `credential_options` is the W3C options
    /// themselves (what supabase-swift's authenticator reads: `rp.id`, `rpId`, `challenge`) with
    /// the same under `publicKey` (go-webauthn's `CredentialCreation`, as supabase/auth answers).
    /// The RP ID and origins are the deployment's: a body naming others is refused by name.
    func challengeWebAuthn(
        _ request: HTTPRequest, factor id: String, of user: User, for bearer: AccessTokens.Bearer,
        context: LambdaContext
    ) async throws -> HTTPResponse {
        guard let webAuthnFactors else { throw Self.webAuthnVerifyOff }
        let app = try await app(of: bearer)
        if !(request.body?.isEmpty ?? true),
            let given = try JSONRequestBody.supabase(request).optionalObject("webauthn")
        {
            let origins = ((given["rp_origins"] ?? given["rpOrigins"])?.arrayValue ?? []).map { $0.stringValue ?? "" }
            guard
                webAuthnFactors.allows(rpID: (given["rp_id"] ?? given["rpId"])?.stringValue, origins: origins, for: app)
            else {
                throw SupabaseError.validation(
                    "rp_id and rp_origins are the deployment's: its PasskeyRpId and the app's origins")
            }
        }
        let begun = try await webAuthnFactors.challenge(id, of: user, bearer: bearer, app: app)
        context.logger.info("factor challenged", metadata: ["userId": .string(user.id), "factorId": .string(id)])
        var options = begun.options.objectValue ?? [:]
        options["publicKey"] = begun.options
        return .json(
            200,
            [
                "id": .string(begun.challenge.id), "type": .string(FactorCredential.factorType),
                "expires_at": .number(begun.challenge.expiresAt),
                "webauthn": ["type": .string(begun.ceremony), "credential_options": .object(options)],
            ])
    }

    /// `POST /factors/{id}/verify` `{challenge_id, webauthn: {type?, credential_response}}` of a
    /// WebAuthn factor (supabase-swift sends no `type`: the challenge's is used): the session
    /// raised to `aal2`, as a code's verify answers. A refused credential is 422
    /// `mfa_verification_failed` (its check logged, never the credential).
    func verifyWebAuthn(
        _ body: JSONRequestBody, factor id: String, of user: User, for bearer: AccessTokens.Bearer,
        sourceIP: String?, context: LambdaContext
    ) async throws -> HTTPResponse {
        guard let webAuthnFactors else { throw Self.webAuthnVerifyOff }
        let challengeID = try body.string("challenge_id", maximumLength: 64)
        guard let params = try body.optionalObject("webauthn") else {
            throw SupabaseError.validation("WebAuthn config required")
        }
        let ceremony = params["type"]?.stringValue
        guard ceremony == nil || ceremony == "create" || ceremony == "request" else {
            throw SupabaseError.validation("WebAuthn type must be create or request")
        }
        guard let credential = params["credential_response"], case .object = credential else {
            throw SupabaseError.validation("credential_response required")
        }
        let session: SessionResponse
        do {
            session = try await webAuthnFactors.verify(
                id, challengeID: challengeID, ceremony: ceremony, credential: credential, user: user, bearer: bearer,
                app: try await app(of: bearer), sourceIP: sourceIP)
        } catch FactorError.credentialRefused(let reason) {
            context.logger.info(
                "factor credential refused",
                metadata: ["userId": .string(user.id), "factorId": .string(id), "reason": .string(reason)])
            throw FactorError.credentialRefused(reason: reason)
        }
        context.logger.info("factor verified", metadata: ["userId": .string(user.id), "factorId": .string(id)])
        let listed = try await factors.list(userID: user.id)
        return .json(
            200, SupabaseJSON.session(session, user: user, lifetime: sessions.accessTokens.lifetime, factors: listed))
    }

    /// Supabase's answer for a WebAuthn factor's challenge or verify while they are off.
    static var webAuthnVerifyOff: SupabaseError {
        SupabaseError(
            status: 422, code: "mfa_webauthn_verify_not_enabled", message: "MFA verification is disabled for WebAuthn")
    }

    /// The bearer's app.
    private func app(of bearer: AccessTokens.Bearer) async throws -> App {
        guard let app = try await sessions.apps.app(id: bearer.app) else { throw AccountError.userNotFound }
        return app
    }

}
