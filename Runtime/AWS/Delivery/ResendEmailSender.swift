import AuthKit
import OutboundHTTP

/// Sends email through Resend (`EMAIL_DELIVERY=resend`): one `POST {RESEND_BASE_URL}/emails` with
/// `Authorization: Bearer` and the JSON `from`, `to`, `subject`, `text`, byte for byte the
/// request Resend's Python library sends for the same message (`ResendRequestTests`). A non-2xx
/// answer is a `ProviderCallError` naming Resend's error (`name`), never the key or the message.
public struct ResendEmailSender: MessageSender {
    /// Resend's API, unless `RESEND_BASE_URL` names another (a local stand-in).
    public static let defaultBaseURL = "https://api.resend.com"

    let baseURL: String
    let from: String
    let apiKey: ProviderSecret
    let http: OutboundHTTPClient

    public func send(_ message: OutgoingMessage) async throws {
        _ = try await ProviderCall.post(
            try await request(for: message), provider: "resend", operation: "SendEmail", http: http)
    }

    /// The request that sends `message`.
    func request(for message: OutgoingMessage) async throws -> OutboundRequest {
        let body = PythonStyleJSON.object([
            ("from", .string(from)), ("to", .strings([message.recipient])),
            ("subject", .string(message.subject ?? "")), ("text", .string(message.text)),
        ])
        return OutboundRequest(
            method: "POST", url: baseURL + "/emails",
            headers: [
                (name: "Accept", value: "application/json"),
                (name: "Authorization", value: "Bearer \(try await apiKey.value())"),
                (name: "Content-Type", value: "application/json"), (name: "User-Agent", value: "gatehouse"),
            ], body: Array(body.utf8))
    }
}
