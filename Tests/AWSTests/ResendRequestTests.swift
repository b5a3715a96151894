import AuthKit
import Foundation
import GatehouseJSON
import OutboundHTTP
import TestServers
import Testing

@testable import AWSDelivery

/// Resend's request, byte for byte against the one Resend's official Python library (`resend`,
/// Tests/Support/Providers/resend_send.py) sends for the same email to the same local server;
/// its errors; its key from Secrets Manager.
@Suite(.serialized)
struct ResendRequestTests {
    static let key = "re_test_0123456789abcdef"
    static let from = "Gatehouse <signin@example.com>"
    /// A subject and a text with what JSON escapes: quotes, a backslash, a slash, control
    /// characters, Latin-1, a character above U+FFFF.
    static let subject = "Sign in to Démo ✓"
    static let text = "Hi \"Ada\" \\ here:\nhttps://x.example/a?b=c&d=e\t\u{7}\u{7F} é 😀"

    func sender(_ environment: [String: String]) throws -> any MessageSender {
        try AWSSenders(environment: ["EMAIL_FROM": Self.from].merging(environment) { $1 }, http: SendersTests.patient)
            .sender(for: .resend, channel: .email)
    }

    func message(to recipient: String) -> OutgoingMessage {
        OutgoingMessage(
            channel: .email, recipient: recipient, subject: Self.subject, text: Self.text, secret: "https://x",
            app: "demo")
    }

    @Test func sendsWhatResendsPythonLibrarySends() async throws {
        let server = try await RecordingServer.start { _ in (200, #"{"id": "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794"}"#) }
        defer { Task { await server.stop() } }
        let library = try await PythonTools.run(
            "Providers/resend_send.py",
            [server.baseURL, Self.key, Self.from, "ada@example.com", Self.subject, Self.text])
        #expect(library.succeeded, "\(library.errors)")
        try await sender(["RESEND_API_KEY": Self.key, "RESEND_BASE_URL": server.baseURL])
            .send(message(to: "ada@example.com"))

        let requests = server.requests
        try #require(requests.count == 2)
        let (theirs, ours) = (requests[0], requests[1])
        #expect(ours.method == "POST" && ours.method == theirs.method)
        #expect(ours.target == "/emails" && ours.target == theirs.target)
        #expect(ours.body == theirs.body, "\(String(decoding: ours.body, as: UTF8.self))")
        for name in ["authorization", "content-type", "accept", "content-length"] {
            #expect(ours.header(name) != nil && ours.header(name) == theirs.header(name), "\(name)")
        }
        // Nothing sent that the library does not send, but who is calling.
        let extra = ours.headers.filter { header in
            header.name != "user-agent" && !theirs.headers.contains(header)
        }
        #expect(extra.isEmpty, "\(extra)")
        #expect(ours.header("authorization") == "Bearer \(Self.key)")
    }

    @Test func aRefusalIsAnErrorNamingResendsCodeNotTheKeyOrTheMessage() async throws {
        let server = try await RecordingServer.start { _ in
            (422, #"{"statusCode": 422, "name": "validation_error", "message": "Invalid `to` field."}"#)
        }
        defer { Task { await server.stop() } }
        do {
            try await sender(["RESEND_API_KEY": Self.key, "RESEND_BASE_URL": server.baseURL])
                .send(message(to: "ada@example.com"))
            Issue.record("a 422 should fail the delivery")
        } catch let error as ProviderCallError {
            #expect(
                error
                    == ProviderCallError(
                        provider: "resend", operation: "SendEmail", status: 422, code: "validation_error"))
            for secret in [Self.key, "ada@example.com", "Ada"] { #expect(!"\(error)".contains(secret)) }
        }
        // No answer at all is a failure too, with status 0.
        await server.stop()
        await #expect(throws: ProviderCallError.self) {
            try await sender(["RESEND_API_KEY": Self.key, "RESEND_BASE_URL": server.baseURL])
                .send(message(to: "ada@example.com"))
        }
    }

    @Test func theKeyComesFromSecretsManagerOnce() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let name = "gatehouse/resend-\(UUID().uuidString.prefix(6))"
        try await SigningKeySecretTests().create(
            "secretsmanager", target: "secretsmanager.CreateSecret",
            ["Name": .string(name), "SecretString": .string(Self.key)], at: endpoint)
        let server = try await RecordingServer.start { _ in (200, #"{"id": "x"}"#) }
        defer { Task { await server.stop() } }
        let sender = try sender(
            SigningKeySecretTests().environment(
                endpoint, ["RESEND_API_KEY_SECRET": name, "RESEND_BASE_URL": server.baseURL]))
        try await sender.send(message(to: "ada@example.com"))
        try await sender.send(message(to: "bob@example.com"))
        #expect(server.requests.map { $0.header("authorization") } == ["Bearer \(Self.key)", "Bearer \(Self.key)"])
    }

    @Test func withoutAKeyOrASenderTheFunctionDoesNotStart() {
        #expect(throws: SettingsError.missing("RESEND_API_KEY_SECRET (or RESEND_API_KEY)")) {
            try AWSSenders(environment: ["EMAIL_FROM": Self.from]).sender(for: .resend, channel: .email)
        }
        #expect(throws: SettingsError.missing("EMAIL_FROM")) {
            try AWSSenders(environment: ["RESEND_API_KEY": Self.key]).sender(for: .resend, channel: .email)
        }
        #expect(throws: SettingsError.self) { try DeliverySettings(environment: ["EMAIL_DELIVERY": "twilio"]) }
        #expect(throws: SettingsError.self) { try DeliverySettings(environment: ["SMS_DELIVERY": "resend"]) }
    }
}
