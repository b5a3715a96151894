import AuthKit
import GatehouseJSON
import HTTPEdge
import LambdaRuntime
import Logging
import SupabaseEdge
import Testing

/// Supabase's error dialect: the current shape for clients that declare API version
/// 2024-01-01, the earlier one otherwise, and Supabase's codes and statuses for our refusals.
struct SupabaseErrorAnswerTests {
    static func request(version: String?) -> HTTPRequest {
        HTTPRequest(
            format: .v2, method: "POST", path: "/auth/v1/token",
            headers: version.map { ["x-supabase-api-version": $0] } ?? [:])
    }

    static func answer(_ error: any Error, version: String? = "2024-01-01") throws -> (Int, [String: String], JSONValue)
    {
        let response = SupabaseErrorAnswer.response(
            to: error, request: request(version: version), context: ErrorAnswerTests.context)
        return (response.statusCode, response.headers, try JSONValue(parsing: Array(try #require(response.body).utf8)))
    }

    @Test func currentClientsGetTheCodeAndMessageAndOlderOnesTheEarlierShape() throws {
        let (status, headers, body) = try Self.answer(AccountError.invalidCredentials)
        #expect(status == 400 && headers["x-supabase-api-version"] == "2024-01-01")
        #expect(body == ["code": "invalid_credentials", "message": "Invalid login credentials"])
        let (_, legacyHeaders, legacy) = try Self.answer(AccountError.invalidCredentials, version: nil)
        #expect(legacyHeaders["x-supabase-api-version"] == nil)
        #expect(legacy == ["code": 400, "error_code": "invalid_credentials", "msg": "Invalid login credentials"])
        #expect(try Self.answer(AccountError.invalidCredentials, version: "2023-12-31").2["error_code"] != nil)
        #expect(try Self.answer(AccountError.invalidCredentials, version: "garbage").2["error_code"] != nil)
    }

    @Test func eachRefusalHasSupabasesStatusAndCode() throws {
        let cases: [(any Error, Int, String)] = [
            (AccountError.emailNotConfirmed, 400, "email_not_confirmed"),
            (AccountError.linkExpired, 403, "otp_expired"), (AccountError.emailExists, 422, "email_exists"),
            (AccountError.missingAccessToken, 401, "no_authorization"), (AccountError.badAccessToken, 403, "bad_jwt"),
            (AccountError.sessionEnded, 403, "session_not_found"),
            (SignInError.locked(retryAfter: 900), 400, "invalid_credentials"),
            (SignInError.invalidField("email", "is not an email address"), 400, "email_address_invalid"),
            (RefreshError.invalidRefreshToken, 400, "refresh_token_not_found"),
            (RefreshError.refreshTokenReused, 400, "refresh_token_already_used"),
            (RequestBodyError.notJSON, 400, "bad_json"), (RequestBodyError.missing, 400, "validation_failed"),
            (SupabaseError.invalidAPIKey, 401, "invalid_api_key"),
        ]
        for (error, status, code) in cases {
            let (answered, _, body) = try Self.answer(error)
            #expect(answered == status && body["code"] == .string(code), "\(error)")
        }
    }

    @Test func aWeakPasswordNamesItsReasonsAndARateLimitItsWait() throws {
        let (status, _, body) = try Self.answer(AccountError.weakPassword([.length, .pwned], minimumLength: 8))
        #expect(status == 422 && body["code"] == "weak_password")
        #expect(body["weak_password"] == ["reasons": ["length", "pwned"]])
        let (limited, headers, refusal) = try Self.answer(SignInError.rateLimited(retryAfter: 42))
        #expect(limited == 429 && headers["retry-after"] == "42" && refusal["code"] == "over_request_rate_limit")
    }

    /// A failed access-token hook answers as supabase/auth's hooks fail; Gatehouse's own routes
    /// answer with Gatehouse's codes (`ErrorAnswer`).
    @Test func aFailedAccessTokenHookHasSupabasesHookErrors() throws {
        let cases: [(AccessTokenHookError, Int, String)] = [
            (.timedOut, 422, "hook_timeout"), (.tooLarge(limit: 4096), 422, "hook_payload_over_size_limit"),
            (.refused(status: 403, message: "banned"), 403, "unknown"),
            (.refused(status: 500, message: "down"), 500, "unexpected_failure"),
            (.invocationFailed("function error Unhandled"), 500, "unexpected_failure"),
            (.invalidAnswer("no claims"), 500, "unexpected_failure"),
            (.reservedClaim("aud"), 500, "unexpected_failure"),
        ]
        for (error, status, code) in cases {
            let (answered, _, body) = try Self.answer(error)
            #expect(answered == status && body["code"] == .string(code), "\(error)")
        }
        #expect(try Self.answer(AccessTokenHookError.refused(status: 403, message: "banned")).2["message"] == "banned")
        #expect(
            try Self.answer(AccessTokenHookError.reservedClaim("aud")).2["message"]?.stringValue?.contains("aud")
                == false, "what failed is the log's, not the client's")
        let gatehouse = ErrorAnswer.response(to: AccessTokenHookError.timedOut, context: ErrorAnswerTests.context)
        #expect(gatehouse.statusCode == 504 && gatehouse.refusalCode == "access_token_hook_timeout")
        let failed = ErrorAnswer.response(
            to: AccessTokenHookError.reservedClaim("sid"), context: ErrorAnswerTests.context)
        #expect(failed.statusCode == 502 && failed.refusalCode == "access_token_hook_failed")
    }

    @Test func aFailureOfOursNamesOnlyTheRequestID() throws {
        let (status, _, body) = try Self.answer(ErrorAnswerTests.Secret())
        #expect(status == 500 && body["code"] == "unexpected_failure")
        #expect(body["message"]?.stringValue?.contains("req-7") == true)
        #expect(!"\(body)".contains("hunter2"))
    }

    @Test func timesAreRFC3339InUTCWithMilliseconds() {
        #expect(UTCTimestamp.string(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(UTCTimestamp.string(milliseconds: 1_800_000_000_000) == "2027-01-15T08:00:00.000Z")
        #expect(UTCTimestamp.string(milliseconds: 951_782_400_123) == "2000-02-29T00:00:00.123Z")
        #expect(UTCTimestamp.string(milliseconds: -1000) == "1969-12-31T23:59:59.000Z")
    }
}
