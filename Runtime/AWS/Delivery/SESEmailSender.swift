import AWSCalls
import AuthKit
import GatehouseJSON

/// Sends email through SES v2 (`SendEmail`, `POST /v2/email/outbound-emails`) from `EMAIL_FROM`:
/// a plain-text message with the subject and text the sign-in flow wrote.
public struct SESEmailSender: MessageSender {
    let call: AWSCall
    let from: String

    public func send(_ message: OutgoingMessage) async throws {
        let body: JSONValue = [
            "FromEmailAddress": .string(from),
            "Destination": ["ToAddresses": [.string(message.recipient)]],
            "Content": [
                "Simple": [
                    "Subject": ["Data": .string(message.subject ?? ""), "Charset": "UTF-8"],
                    "Body": ["Text": ["Data": .string(message.text), "Charset": "UTF-8"]],
                ]
            ],
        ]
        _ = try await call.post(
            operation: "SendEmail", path: "/v2/email/outbound-emails", contentType: "application/json",
            body: body.serializedBytes)
    }
}
