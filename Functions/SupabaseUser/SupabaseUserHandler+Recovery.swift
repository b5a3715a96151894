import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge

extension SupabaseUserHandler {
    /// Recovery codes, Gatehouse's own routes (Supabase has none), with the user's access token:
    /// - `POST /factors/recovery` `{code}`: one of the codes shown at the first enrolment, spent;
    ///   the session raised to `aal2` (`amr` gains `recovery_code`), answered as a factor's verify
    ///   is, with `recovery_codes_remaining`. The owner is mailed a notice after the answer;
    /// - `POST /factors/recovery/regenerate` from an `aal2` session: `{recovery_codes}`, a new
    ///   set replacing the old, shown this once.
    /// No code is ever logged.
    func recoveryRoute(
        _ request: HTTPRequest, rest: [String], of user: User, for bearer: AccessTokens.Bearer, context: LambdaContext
    ) async throws -> HTTPResponse {
        switch (request.method, rest.count) {
        case ("POST", 1): return try await useRecoveryCode(request, of: user, for: bearer, context: context)
        case ("POST", 2) where rest[1] == "regenerate":
            let codes: [String]
            do {
                codes = try await factors.regenerateRecoveryCodes(bearer: bearer)
            } catch let error as FactorError where error == .insufficientAAL(enrolling: true) {
                // Supabase's refusal, in words of this route.
                throw SupabaseError(
                    status: error.status, code: error.code, message: "AAL2 required to regenerate recovery codes")
            }
            context.logger.notice("recovery codes regenerated", metadata: ["userId": .string(user.id)])
            return .json(200, ["recovery_codes": .array(codes.map(JSONValue.string))])
        default: throw FactorError.factorNotFound
        }
    }

    private func useRecoveryCode(
        _ request: HTTPRequest, of user: User, for bearer: AccessTokens.Bearer, context: LambdaContext
    ) async throws -> HTTPResponse {
        let code = try JSONRequestBody.supabase(request).string("code", maximumLength: 64)
        guard !code.isEmpty else { throw SupabaseError.validation("Code needs to be non-empty") }
        let use = try await factors.useRecoveryCode(code, user: user, bearer: bearer, sourceIP: request.sourceIP)
        context.logger.notice(
            "recovery code used",
            metadata: ["userId": .string(user.id), "sessionId": .string(bearer.sessionID), "left": "\(use.remaining)"])
        if let app = try await sessions.apps.app(id: bearer.app) {
            let links = accounts.links
            try await accounts.later {
                try await Factors.mailRecoveryNotice(to: user, app: app, remaining: use.remaining, links: links)
            }
        }
        let answer = SupabaseJSON.session(
            use.session, user: user, lifetime: sessions.accessTokens.lifetime,
            factors: try await factors.list(userID: user.id))
        guard case .object(var fields) = answer else { return .json(200, answer) }
        fields["recovery_codes_remaining"] = .number(Double(use.remaining))
        return .json(200, .object(fields))
    }
}
