import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

extension SupabaseUserHandler {
    /// `POST /factors` `{factor_type: "phone", phone, friendly_name?}`: a phone factor,
    /// unverified, as supabase/auth answers it (`{id, type, friendly_name, phone}`, the number as
    /// given), with `recovery_codes` at the user's first enrolment. The number is read as the phone sign-in reads one (E.164, its `+` optional).
    func enrollPhone(
        _ body: JSONRequestBody, of user: User, for bearer: AccessTokens.Bearer, context: LambdaContext
    ) async throws -> HTTPResponse {
        guard let phoneFactors else { throw FactorError.phoneNotEnabled }
        guard case .string(let given)? = body.object["phone"], !given.isEmpty else {
            throw SupabaseError.validation("Phone number required to enroll Phone factor")
        }
        let (factor, recoveryCodes) = try await phoneFactors.enroll(
            try body.phone(), friendlyName: try body.optionalString("friendly_name", maximumLength: 256) ?? "",
            for: user, bearer: bearer)
        context.logger.info("factor enrolled", metadata: ["userId": .string(user.id), "factorId": .string(factor.id)])
        var answer: [String: JSONValue] = [
            "id": .string(factor.id), "type": "phone", "friendly_name": .string(factor.friendlyName),
            "phone": .string(given),
        ]
        // The first enrolment's recovery codes, shown this once (Gatehouse's own, as for TOTP).
        if !recoveryCodes.isEmpty { answer["recovery_codes"] = .array(recoveryCodes.map(JSONValue.string)) }
        return .json(200, .object(answer))
    }

    /// `POST /factors/{id}/challenge` `{channel?}` of a phone factor: the challenge
    /// (`{id, type, expires_at}`), its code texted after the answer. Only `sms`: WhatsApp is
    /// refused by name (no sender here sends it).
    func challengePhone(
        _ request: HTTPRequest, factor id: String, of user: User, for bearer: AccessTokens.Bearer,
        context: LambdaContext
    ) async throws -> HTTPResponse {
        guard let phoneFactors else { throw FactorError.phoneNotEnabled }
        let channel =
            request.body?.isEmpty ?? true
            ? nil : try JSONRequestBody.supabase(request).optionalString("channel", maximumLength: 16)
        switch channel {
        case nil, "sms": break
        case "whatsapp":
            throw SupabaseError.validation("channel whatsapp is not supported: factor codes are texted (sms)")
        default: throw SupabaseError.validation("Invalid channel, the supported value is 'sms'")
        }
        let (challenge, text) = try await phoneFactors.challenge(id, bearer: bearer, sourceIP: request.sourceIP)
        try await accounts.later(text)
        context.logger.info("factor challenged", metadata: ["userId": .string(user.id), "factorId": .string(id)])
        return .json(200, ["id": .string(challenge.id), "type": "phone", "expires_at": .number(challenge.expiresAt)])
    }

    /// Whether the bearer's factor `id` is a phone factor (`factorNotFound` when it has none).
    func isPhoneFactor(_ id: String, of bearer: AccessTokens.Bearer) async throws -> Bool {
        try await factors.factor(id, userID: bearer.userID).type == "phone"
    }

    /// `code` checked for the bearer's factor `id`, of whichever kind: the raised session.
    func verifyCode(
        _ id: String, challengeID: String, code: String, user: User, bearer: AccessTokens.Bearer, sourceIP: String?
    ) async throws -> SessionResponse {
        guard try await isPhoneFactor(id, of: bearer) else {
            return try await factors.verify(
                id, challengeID: challengeID, code: code, user: user, bearer: bearer, sourceIP: sourceIP)
        }
        guard let phoneFactors else { throw FactorError.phoneNotEnabled }
        return try await phoneFactors.verify(
            id, challengeID: challengeID, code: code, user: user, bearer: bearer, sourceIP: sourceIP)
    }
}
