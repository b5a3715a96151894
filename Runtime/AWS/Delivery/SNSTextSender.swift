import AWSCalls
import AuthKit

/// Sends SMS through SNS `Publish` to a phone number, as a transactional message (the type
/// AWS delivers first and never marks as marketing).
public struct SNSTextSender: MessageSender {
    let call: AWSCall

    public func send(_ message: OutgoingMessage) async throws {
        let form = FormEncoding.encode([
            ("Action", "Publish"), ("Version", "2010-03-31"), ("PhoneNumber", message.recipient),
            ("Message", message.text),
            ("MessageAttributes.entry.1.Name", "AWS.SNS.SMS.SMSType"),
            ("MessageAttributes.entry.1.Value.DataType", "String"),
            ("MessageAttributes.entry.1.Value.StringValue", "Transactional"),
        ])
        _ = try await call.post(
            operation: "Publish", path: "/", contentType: "application/x-www-form-urlencoded; charset=utf-8",
            body: Array(form.utf8))
    }
}
