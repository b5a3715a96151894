import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging

/// The one place the Supabase routes' errors become answers, with the one log line each gets.
///
/// A request that declares `X-Supabase-Api-Version: 2024-01-01` or later (Supabase's current
/// clients do) gets `{"code": "<error_code>", "message": ...}` and the header back; an older
/// client gets the earlier shape, `{"code": <status>, "error_code": ..., "msg": ...}`.
public enum SupabaseErrorAnswer {
    /// The first API version with the current error shape.
    public static let currentVersion = "2024-01-01"

    public static func response(to error: any Error, request: HTTPRequest, context: LambdaContext) -> HTTPResponse {
        guard let refusal = refusal(for: error) else {
            context.logger.error(
                "request failed",
                metadata: [
                    "errorType": .string(String(describing: type(of: error))),
                    "error": .string(LogSafe.description(of: error)),
                ])
            return render(
                SupabaseError(
                    status: 500, code: "unexpected_failure",
                    message: "The request failed on the server (request id \(context.requestID))."),
                request: request)
        }
        // A failed hook's cause (a claim's name, the function's error type) is logged; the answer
        // does not carry it (`SupabaseError(hook:)`).
        let logged = (error as? AccessTokenHookError)?.description ?? refusal.message
        ErrorAnswer.log(refusal.code, status: refusal.status, description: logged, context: context)
        return render(refusal, request: request)
    }

    /// `refusal` in the shape the request's API version asks for.
    public static func render(_ refusal: SupabaseError, request: HTTPRequest) -> HTTPResponse {
        var headers: [String: String] = [:]
        if let retryAfter = refusal.retryAfter { headers["retry-after"] = String(retryAfter) }
        var body: [String: JSONValue]
        if isCurrent(request.header("x-supabase-api-version")) {
            headers["x-supabase-api-version"] = currentVersion
            body = ["code": .string(refusal.code), "message": .string(refusal.message)]
        } else {
            body = [
                "code": .number(Double(refusal.status)), "error_code": .string(refusal.code),
                "msg": .string(refusal.message),
            ]
        }
        body.merge(refusal.extra) { current, _ in current }
        var response = HTTPResponse.json(refusal.status, .object(body), headers: headers)
        response.refusalCode = refusal.code
        return response
    }

    /// Whether `version` (a `YYYY-MM-DD` date) is the current shape's or later.
    static func isCurrent(_ version: String?) -> Bool {
        guard let version, version.utf8.count == 10,
            version.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) })
        else { return false }
        return version >= currentVersion
    }

    /// The Supabase error for a refusal; nil for a failure of ours (a 500).
    static func refusal(for error: any Error) -> SupabaseError? {
        switch error {
        case let error as SupabaseError: return error
        case let error as AccountError: return SupabaseError(account: error)
        case let error as SignInError: return signInRefusal(error)
        case let error as FlowError: return flowRefusal(error)
        case let error as AccessTokenHookError: return SupabaseError(hook: error)
        case let error as FactorError: return SupabaseError(factor: error)
        case RefreshError.invalidRefreshToken:
            return SupabaseError(
                status: 400, code: "refresh_token_not_found", message: "Invalid Refresh Token: Refresh Token Not Found")
        case RefreshError.refreshTokenReused:
            return SupabaseError(
                status: 400, code: "refresh_token_already_used", message: "Invalid Refresh Token: Already Used")
        case SessionError.userNotFound:
            return SupabaseError(status: 403, code: "user_not_found", message: "User not found")
        case SessionError.banned:
            return SupabaseError(status: 400, code: "user_banned", message: "User is banned")
        case let error as ServerKeyError: return SupabaseError(serverKey: error)
        case let error as UserAdminError: return SupabaseError(admin: error)
        case let error as AuditQueryError: return .validation(error.description)
        case SessionError.notRedeemableHere:
            // Supabase's word for a sign-in method that is off: this app's public sign-ins are.
            return SupabaseError(
                status: 400, code: "provider_disabled",
                message: "This app signs in through its backend only (its redeem setting)")
        case RequestBodyError.notJSON:
            return SupabaseError(status: 400, code: "bad_json", message: "Could not parse request body as JSON")
        case let error as RequestBodyError: return .validation(error.description)
        default: return nil
        }
    }

    /// A PKCE flow's refusal in supabase/auth's codes and words (its `PKCEGrant`).
    private static func flowRefusal(_ error: FlowError) -> SupabaseError {
        switch error {
        case .invalidChallenge(let why): .validation(why)
        case .missingCodeOrVerifier:
            .validation("invalid request: both auth code and code verifier should be non-empty")
        case .notFound:
            SupabaseError(
                status: 404, code: "flow_state_not_found", message: "invalid flow state, no valid flow state found")
        case .expired:
            SupabaseError(
                status: 422, code: "flow_state_expired", message: "invalid flow state, flow state has expired")
        case .badVerifier:
            SupabaseError(
                status: 400, code: "bad_code_verifier",
                message: "code challenge does not match previously saved code verifier")
        }
    }

    private static func signInRefusal(_ error: SignInError) -> SupabaseError? {
        switch error {
        case .invalidField("email", _):
            return SupabaseError(
                status: 400, code: "email_address_invalid", message: "Unable to validate email address: invalid format")
        case .invalidField(let name, let why): return .validation("\(name) \(why)")
        case .rateLimited(let seconds):
            return SupabaseError(
                status: 429, code: "over_request_rate_limit", message: "Request rate limit reached",
                retryAfter: seconds)
        case .sendBudgetSpent(let seconds):
            return SupabaseError(
                status: 429, code: "over_sms_send_rate_limit", message: "SMS rate limit exceeded",
                retryAfter: seconds)
        case .locked: return SupabaseError(account: .invalidCredentials)
        case .codeRefused:
            // A texted code's words in supabase/auth (an emailed link's are `linkExpired`'s).
            return SupabaseError(status: 403, code: "otp_expired", message: "Token has expired or is invalid")
        case .unknownApp, .platformNotConfigured: return .validation(error.description)
        case .tokenRefused(let reason):
            return SupabaseError(status: 400, code: "bad_jwt", message: "The ID token was refused (\(reason))")
        case .crossSiteRequest: return nil
        }
    }
}
