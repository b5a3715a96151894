import AuthKit
import GatehouseJSON
import OutboundHTTP

/// Phone codes through Twilio Verify (`SMS_DELIVERY=twilio`), which makes, sends and checks them:
/// `start` creates a verification (`POST /v2/Services/{sid}/Verifications`, `To`, `Channel`),
/// `check` checks a code (`POST /v2/Services/{sid}/VerificationCheck`, `Code`, `To`), form-encoded
/// with HTTP Basic (account SID, auth token), byte for byte as Twilio's Python library sends them
/// (`TwilioRequestTests`). Twilio's answers: a check's `status` `approved` is a right code,
/// `pending` a wrong one; 404 (no pending verification: expired, used, never made) is a wrong
/// code; 429 (Twilio's own limit on sends or checks of one verification, which lives 10 minutes)
/// is `rateLimited` for a request and `locked` for a check. Any other non-2xx answer is a
/// `ProviderCallError`.
public struct TwilioVerify: PhoneVerificationProvider {
    /// Twilio Verify's API, unless `TWILIO_VERIFY_BASE_URL` names another (a local stand-in).
    public static let defaultBaseURL = "https://verify.twilio.com"
    /// How long Twilio keeps a verification, so its own limits last at most that long.
    static let verificationSeconds = 600

    let baseURL: String
    let credentials: TwilioCredentials
    let http: OutboundHTTPClient

    public func start(_ phone: PhoneNumber, channel: PhoneCodeChannel) async throws {
        let response = try await ProviderCall.post(
            try await request("Verifications", [("To", phone.value), ("Channel", channel.rawValue)]),
            provider: "twilio", operation: "CreateVerification", http: http, passing: [429])
        if response.status == 429 { throw SignInError.rateLimited(retryAfter: Self.verificationSeconds) }
    }

    public func check(_ phone: PhoneNumber, code: String) async throws -> Bool {
        let response = try await ProviderCall.post(
            try await request("VerificationCheck", [("Code", code), ("To", phone.value)]),
            provider: "twilio", operation: "CheckVerification", http: http, passing: [404, 429])
        switch response.status {
        case 404: return false
        case 429: throw SignInError.locked(retryAfter: Self.verificationSeconds)
        default: return (try? JSONValue(parsing: response.body))?["status"]?.stringValue == "approved"
        }
    }

    /// The form POST to `/v2/Services/{sid}/{resource}` with `form`, in Twilio's library's order.
    func request(_ resource: String, _ form: [(String, String)]) async throws -> OutboundRequest {
        let values = try await credentials.values()
        return OutboundRequest(
            method: "POST",
            url: "\(baseURL)/v2/Services/\(FormEncoding.escape(values.serviceSID))/\(resource)",
            headers: [
                (name: "Accept", value: "application/json"),
                (name: "Content-Type", value: "application/x-www-form-urlencoded"),
                (name: "Accept-Charset", value: "utf-8"),
                (
                    name: "Authorization",
                    value: "Basic \(FormEncoding.base64("\(values.accountSID):\(values.authToken)"))"
                ),
                (name: "User-Agent", value: "gatehouse"),
            ], body: Array(FormEncoding.encode(form).utf8))
    }
}
