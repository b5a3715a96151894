import AWSCalls
import AWSSigning
import AuthKit
import Foundation
import GatehouseJSON
import OutboundHTTP
import TestServers
import Testing

@testable import AWSDelivery

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SES and SNS senders against moto_server, read back through moto's own API.
@Suite(.serialized)
struct SendersTests {
    static let patient = OutboundHTTPClient(
        configuration: .patient())

    func senders(_ endpoint: String, from: String = "noreply@example.com") -> AWSSenders {
        AWSSenders(
            environment: [
                "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                "EMAIL_FROM": from, "SES_ENDPOINT": endpoint, "SNS_ENDPOINT": endpoint,
            ], http: Self.patient)
    }

    /// SES sends only from a verified identity: v1's `VerifyEmailIdentity`, as an operator would.
    func verify(_ address: String, at endpoint: String) async throws {
        let call = AWSCall(
            service: "ses", region: "us-east-1", endpoint: endpoint,
            credentials: .init(accessKeyID: "testing", secretAccessKey: "testing"), http: Self.patient)
        _ = try await call.post(
            operation: "VerifyEmailIdentity", path: "/", contentType: "application/x-www-form-urlencoded",
            body: Array(FormEncoding.encode([("Action", "VerifyEmailIdentity"), ("EmailAddress", address)]).utf8))
    }

    @Test func anEmailGoesOutThroughSESv2() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let from = "signin-\(UUID().uuidString.prefix(6))@example.com"
        try await verify(from, at: endpoint)
        let to = "ada-\(UUID().uuidString.prefix(6))@example.com"
        let sender = try senders(endpoint, from: from).sender(for: .ses, channel: .email)
        try await sender.send(
            OutgoingMessage(
                channel: .email, recipient: to, subject: "Sign in to Demo", text: "Your link: https://x/y?token=t",
                secret: "https://x/y?token=t", app: "demo"))
        let sent = (try await MotoServer.messaging.state()["ses"]?["Message"]?.arrayValue ?? []).filter {
            $0["destinations"]?["ToAddresses"] == [.string(to)]
        }
        #expect(sent.count == 1)
        #expect(sent.first?["source"] == .string(from))
        #expect(sent.first?["subject"] == "Sign in to Demo")
        #expect(sent.first?["body"] == "Your link: https://x/y?token=t")
    }

    @Test func anUnverifiedSenderIsRefusedByNameNotByContent() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let sender = try senders(endpoint, from: "never-verified@example.com").sender(for: .ses, channel: .email)
        do {
            try await sender.send(
                OutgoingMessage(
                    channel: .email, recipient: "x@example.com", subject: "s", text: "secret-link",
                    secret: "secret-link",
                    app: "demo"))
            Issue.record("SES should refuse an unverified sender")
        } catch let error as AWSCallError {
            #expect(error.service == "ses" && error.operation == "SendEmail" && error.status == 400)
            #expect(error.code == "MessageRejected")
            #expect(!"\(error)".contains("secret-link") && !"\(error)".contains("x@example.com"))
        }
    }

    @Test func anSMSGoesOutThroughSNSPublish() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let number = "+1555\(Int.random(in: 1_000_000...9_999_999))"
        let sender = try senders(endpoint).sender(for: .sns, channel: .sms)
        try await sender.send(
            OutgoingMessage(
                channel: .sms, recipient: number, subject: nil, text: "Your Demo code: 123456", secret: "123456",
                app: "demo"))
        let texts = (try await MotoServer.messaging.state()["sns"]?["SMS"]?.arrayValue ?? []).filter {
            $0["phone_number"] == .string(number)
        }
        #expect(texts.map { $0["message"] } == ["Your Demo code: 123456"])
    }

    @Test func deliverySettingsNameWhatIsMissing() throws {
        #expect(throws: SettingsError.self) {
            try DeliverySettings(environment: ["EMAIL_DELIVERY": "sns"])
        }
        #expect(throws: SettingsError.self) {
            try DeliverySettings(environment: ["SMS_DELIVERY": "ses"])
        }
        let ses = try DeliverySettings(environment: ["EMAIL_DELIVERY": "ses"])
        #expect(ses.email == .ses)
        #expect(throws: SettingsError.missing("EMAIL_FROM")) {
            try AWSSenders(environment: [
                "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b",
            ])
            .sender(for: .ses, channel: .email)
        }
    }
}
