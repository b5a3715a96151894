import AuthKit
import Foundation
import GatehouseJSON
import OutboundHTTP
import TestServers
import Testing

@testable import AWSDelivery

/// Twilio Verify's two requests, byte for byte against the ones Twilio's official Python library
/// (`twilio`, Tests/Support/Providers/twilio_verify.py) sends for the same calls; Twilio's
/// answers (the stand-in's, as Twilio's API reference shows them) mapped to Gatehouse's.
@Suite(.serialized)
struct TwilioVerifyTests {
    static let number = "+14155550123"

    func provider(
        _ standIn: TwilioVerifyStandIn, _ extra: [String: String] = [:]
    ) throws
        -> any PhoneVerificationProvider
    {
        try AWSSenders(environment: standIn.environment.merging(extra) { $1 }, http: SendersTests.patient)
            .phoneVerification()
    }

    @Test(arguments: ["sms", "call"])
    func sendsWhatTwiliosPythonLibrarySends(channel: String) async throws {
        let standIn = try await TwilioVerifyStandIn.start()
        defer { Task { await standIn.stop() } }
        let library = try await PythonTools.run(
            "Providers/twilio_verify.py",
            [
                standIn.baseURL, TwilioVerifyStandIn.accountSID, TwilioVerifyStandIn.authToken,
                TwilioVerifyStandIn.serviceSID, Self.number, channel, "000000",
            ])
        #expect(library.succeeded, "\(library.errors)")
        let provider = try provider(standIn)
        let phone = try #require(PhoneNumber(Self.number, country: nil))
        try await provider.start(phone, channel: try #require(PhoneCodeChannel(rawValue: channel)))
        _ = try await provider.check(phone, code: "000000")

        let requests = standIn.server.requests
        try #require(requests.count == 4)
        for (theirs, ours) in [(requests[0], requests[2]), (requests[1], requests[3])] {
            #expect(ours.method == "POST" && ours.method == theirs.method)
            #expect(ours.target == theirs.target)
            #expect(ours.body == theirs.body, "\(String(decoding: ours.body, as: UTF8.self))")
            for name in ["authorization", "content-type", "accept", "accept-charset", "content-length"] {
                #expect(ours.header(name) != nil && ours.header(name) == theirs.header(name), "\(name)")
            }
            let extra = ours.headers.filter { header in
                header.name != "user-agent" && !theirs.headers.contains(header)
            }
            #expect(extra.isEmpty, "\(extra)")
        }
        #expect(requests[2].target == "/v2/Services/\(TwilioVerifyStandIn.serviceSID)/Verifications")
        #expect(String(decoding: requests[2].body, as: UTF8.self) == "To=%2B14155550123&Channel=\(channel)")
        #expect(requests[3].target == "/v2/Services/\(TwilioVerifyStandIn.serviceSID)/VerificationCheck")
        #expect(String(decoding: requests[3].body, as: UTF8.self) == "Code=000000&To=%2B14155550123")
    }

    @Test func twiliosAnswersBecomeGatehousesRefusals() async throws {
        let standIn = try await TwilioVerifyStandIn.start()
        defer { Task { await standIn.stop() } }
        let provider = try provider(standIn)
        let phone = try #require(PhoneNumber(Self.number, country: nil))
        // No verification: 404, a wrong code.
        #expect(try await provider.check(phone, code: "123456") == false)
        try await provider.start(phone, channel: .sms)
        let code = try #require(standIn.code(for: Self.number))
        let wrong = code == "999999" ? "999998" : "999999"
        #expect(try await provider.check(phone, code: wrong) == false)
        #expect(try await provider.check(phone, code: code) == true)
        // Approved once: the same code again finds no verification.
        #expect(try await provider.check(phone, code: code) == false)

        // An expired verification: 404.
        try await provider.start(phone, channel: .sms)
        let expiring = try #require(standIn.code(for: Self.number))
        standIn.expire(Self.number)
        #expect(try await provider.check(phone, code: expiring) == false)

        // Twilio's 5 checks a verification, then 429: locked.
        try await provider.start(phone, channel: .sms)
        for _ in 0..<5 { _ = try await provider.check(phone, code: wrong) }
        await #expect(throws: SignInError.locked(retryAfter: 600)) { try await provider.check(phone, code: wrong) }
        // Twilio's 5 sends a verification, then 429: rate limited.
        for _ in 0..<4 { try await provider.start(phone, channel: .sms) }
        await #expect(throws: SignInError.rateLimited(retryAfter: 600)) {
            try await provider.start(phone, channel: .sms)
        }
    }

    @Test func aBadTokenIsADeliveryFailureThatNamesNoSecret() async throws {
        let standIn = try await TwilioVerifyStandIn.start()
        defer { Task { await standIn.stop() } }
        let provider = try provider(standIn, ["TWILIO_AUTH_TOKEN": "wrong-token"])
        let phone = try #require(PhoneNumber(Self.number, country: nil))
        do {
            try await provider.start(phone, channel: .sms)
            Issue.record("a 401 should fail")
        } catch let error as ProviderCallError {
            #expect(
                error
                    == ProviderCallError(
                        provider: "twilio", operation: "CreateVerification", status: 401, code: "20003"))
            for secret in ["wrong-token", Self.number, TwilioVerifyStandIn.accountSID] {
                #expect(!"\(error)".contains(secret))
            }
        }
    }

    @Test func theCredentialsComeFromOneSecret() async throws {
        let endpoint = try await MotoServer.messaging.endpoint()
        let name = "gatehouse/twilio-\(UUID().uuidString.prefix(6))"
        let value: JSONValue = [
            "accountSid": .string(TwilioVerifyStandIn.accountSID),
            "verifyServiceSid": .string(TwilioVerifyStandIn.serviceSID),
            "authToken": .string(TwilioVerifyStandIn.authToken),
        ]
        try await SigningKeySecretTests().create(
            "secretsmanager", target: "secretsmanager.CreateSecret",
            ["Name": .string(name), "SecretString": .string(String(decoding: value.serializedBytes, as: UTF8.self))],
            at: endpoint)
        let standIn = try await TwilioVerifyStandIn.start()
        defer { Task { await standIn.stop() } }
        let provider = try AWSSenders(
            environment: SigningKeySecretTests().environment(
                endpoint, ["TWILIO_SECRET": name, "TWILIO_VERIFY_BASE_URL": standIn.baseURL]),
            http: SendersTests.patient
        ).phoneVerification()
        try await provider.start(try #require(PhoneNumber(Self.number, country: nil)), channel: .sms)
        #expect(standIn.code(for: Self.number) != nil)
        #expect(throws: SettingsError.self) { try AWSSenders(environment: [:]).phoneVerification() }
    }
}
