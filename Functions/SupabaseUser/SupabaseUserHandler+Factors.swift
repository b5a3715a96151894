import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

extension SupabaseUserHandler {
    /// `/auth/v1/factors…` (supabase-swift's `auth.mfa`), for the bearer's own factors only:
    /// `POST /factors` enrols, `POST /factors/{id}/challenge` challenges, `POST
    /// /factors/{id}/verify` verifies (raising the session to `aal2`), `DELETE /factors/{id}`
    /// unenrols. Nothing here logs a secret or a code.
    func factorRoute(
        _ request: HTTPRequest, of user: User, for bearer: AccessTokens.Bearer, context: LambdaContext
    ) async throws -> HTTPResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        guard let index = parts.firstIndex(of: "factors") else { throw FactorError.factorNotFound }
        let rest = Array(parts[(index + 1)...])
        if rest.first == "recovery" {
            return try await recoveryRoute(request, rest: rest, of: user, for: bearer, context: context)
        }
        switch (request.method, rest.count, rest.last) {
        case ("POST", 0, _): return try await enroll(request, of: user, for: bearer, context: context)
        case ("POST", 2, "challenge"):
            switch try await factors.factor(rest[0], userID: bearer.userID).type {
            case "phone":
                return try await challengePhone(request, factor: rest[0], of: user, for: bearer, context: context)
            case FactorCredential.factorType:
                return try await challengeWebAuthn(request, factor: rest[0], of: user, for: bearer, context: context)
            default: break
            }
            let challenge = try await factors.challenge(rest[0], bearer: bearer)
            return .json(
                200,
                ["id": .string(challenge.id), "type": "totp", "expires_at": .number(challenge.expiresAt)])
        case ("POST", 2, "verify"):
            return try await verify(request, factor: rest[0], of: user, for: bearer, context: context)
        case ("DELETE", 1, _):
            try await factors.unenroll(rest[0], bearer: bearer)
            context.logger.info("factor unenrolled", metadata: ["userId": .string(user.id)])
            return .json(200, ["id": .string(rest[0])])
        default: throw FactorError.factorNotFound
        }
    }

    /// `POST /factors` `{factor_type, friendly_name?, issuer?}`: a TOTP factor, unverified, and
    /// its secret, shown this once; with `factor_type: "phone"` (and `phone`), a phone factor
    /// (`enrollPhone`); with `webauthn`, a WebAuthn factor (`enrollWebAuthn`).
    private func enroll(
        _ request: HTTPRequest, of user: User, for bearer: AccessTokens.Bearer, context: LambdaContext
    ) async throws -> HTTPResponse {
        let body = try JSONRequestBody.supabase(request)
        switch try body.optionalString("factor_type", maximumLength: 16) {
        case "totp": break
        case "phone": return try await enrollPhone(body, of: user, for: bearer, context: context)
        case "webauthn": return try await enrollWebAuthn(body, of: user, for: bearer, context: context)
        default: throw SupabaseError.validation("factor_type needs to be totp, phone, or webauthn")
        }
        let issuer = try body.optionalString("issuer", maximumLength: 256).flatMap { $0.isEmpty ? nil : $0 }
        let enrollment = try await factors.enroll(
            friendlyName: try body.optionalString("friendly_name", maximumLength: 256) ?? "",
            issuer: issuer ?? Self.host(of: self.issuer), for: user, bearer: bearer)
        context.logger.info(
            "factor enrolled", metadata: ["userId": .string(user.id), "factorId": .string(enrollment.factor.id)])
        var answer: [String: JSONValue] = [
            "id": .string(enrollment.factor.id), "type": "totp",
            "friendly_name": .string(enrollment.factor.friendlyName),
            "totp": [
                "qr_code": .string(FactorQRCode.svg(for: enrollment.uri)), "secret": .string(enrollment.secret),
                "uri": .string(enrollment.uri),
            ],
        ]
        // Gatehouse's own, with the first factor only (shown this once): Supabase's clients
        // ignore the key.
        if !enrollment.recoveryCodes.isEmpty {
            answer["recovery_codes"] = .array(enrollment.recoveryCodes.map(JSONValue.string))
        }
        return .json(200, .object(answer))
    }

    /// `POST /factors/{id}/verify` `{challenge_id, code}`: the session raised to `aal2`, as
    /// Supabase answers it (its user listing the factors); a WebAuthn factor's takes a credential
    /// (`verifyWebAuthn`).
    private func verify(
        _ request: HTTPRequest, factor id: String, of user: User, for bearer: AccessTokens.Bearer,
        context: LambdaContext
    ) async throws -> HTTPResponse {
        let body = try JSONRequestBody.supabase(request)
        if try await factors.factor(id, userID: bearer.userID).type == FactorCredential.factorType {
            return try await verifyWebAuthn(
                body, factor: id, of: user, for: bearer, sourceIP: request.sourceIP, context: context)
        }
        let challengeID = try body.string("challenge_id", maximumLength: 64)
        let code = try body.string("code", maximumLength: 16)
        guard !code.isEmpty else { throw SupabaseError.validation("Code needs to be non-empty") }
        let session = try await verifyCode(
            id, challengeID: challengeID, code: code, user: user, bearer: bearer, sourceIP: request.sourceIP)
        context.logger.info("factor verified", metadata: ["userId": .string(user.id), "factorId": .string(id)])
        let listed = try await factors.list(userID: user.id)
        return .json(
            200, SupabaseJSON.session(session, user: user, lifetime: sessions.accessTokens.lifetime, factors: listed))
    }

    /// The host of `url` (the issuer when the client names none, as supabase/auth uses its
    /// site URL's host).
    static func host(of url: String) -> String {
        let afterScheme = url.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first
        return afterScheme.map(String.init) ?? url
    }
}
