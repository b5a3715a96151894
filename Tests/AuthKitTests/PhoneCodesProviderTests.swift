import AuthKit
import Foundation
import GatehouseJSON
import Store
import Synchronization
import Testing

/// Phone codes through a provider that makes and checks them (Twilio Verify's place): nothing
/// of the code stored, Gatehouse's limits and the code's tries in front, a PKCE challenge bound to the
/// provider's code and never dropped by a later request.
struct PhoneCodesProviderTests {
    static let phone = PhoneNumber("+14155550100")!

    /// A provider whose one code is `code`; it records the channels it was asked for.
    final class FakeProvider: PhoneVerificationProvider {
        let code = "314159"
        let calls = Mutex<(starts: [PhoneCodeChannel], checks: Int)>(([], 0))

        func start(_ phone: PhoneNumber, channel: PhoneCodeChannel) async throws {
            calls.withLock { $0.starts.append(channel) }
        }

        func check(_ phone: PhoneNumber, code: String) async throws -> Bool {
            calls.withLock { $0.checks += 1 }
            return code == self.code
        }
    }

    struct Fixture {
        let clock: TestClock
        let store: SQLiteStore
        let provider = FakeProvider()
        let codes: PhoneCodes

        init() throws {
            clock = TestClock(SessionFixtures.start)
            store = try SessionFixtures.store(clock: clock)
            codes = PhoneCodes(
                store: store, clock: clock, sender: OutboxSender(store: store, clock: clock),
                secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)), provider: provider)
        }
    }

    @Test func theProviderSendsAndChecksAndNothingIsStoredOrTexted() async throws {
        let fixture = try Fixture()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1")
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1", channel: .call)
        #expect(fixture.provider.calls.withLock { $0.starts } == [.sms, .call])
        // The issue holds the code's tries, never the code.
        let issued = try await fixture.store.scan(PhoneCodes.table, limit: nil)
        #expect(issued.count == 1 && issued.first?["tries"] == 0)
        #expect(!"\(issued)".contains(fixture.provider.code))
        #expect(try await fixture.store.scan(OutboxSender.table, limit: nil).isEmpty)
        await #expect(throws: SignInError.codeRefused) {
            try await fixture.codes.verify(Self.phone, code: "000000", sourceIP: nil, app: "demo")
        }
        try await fixture.codes.verify(Self.phone, code: fixture.provider.code, sourceIP: nil, app: "demo")
    }

    @Test func gatehousesLimitsStayInFront() async throws {
        let fixture = try Fixture()
        for _ in 0..<3 { try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil) }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        }
        #expect(fixture.provider.calls.withLock { $0.starts.count } == 3)
        for _ in 0..<5 {
            await #expect(throws: SignInError.codeRefused) {
                try await fixture.codes.verify(Self.phone, code: "000000", sourceIP: nil, app: "demo")
            }
        }
        // The code had its tries: even the right one is refused, and the provider is not asked.
        await #expect(throws: SignInError.codeRefused) {
            try await fixture.codes.verify(Self.phone, code: fixture.provider.code, sourceIP: nil, app: "demo")
        }
        #expect(fixture.provider.calls.withLock { $0.checks } == 5)
        // Nothing locks the number: the owner's next request, from their own source, is a fresh
        // issue whose code works.
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.9")
        try await fixture.codes.verify(Self.phone, code: fixture.provider.code, sourceIP: nil, app: "demo")
    }

    @Test func aChallengeBindsTheProvidersCodeAndALaterRequestDoesNotUnbindIt() async throws {
        let fixture = try Fixture()
        let verifier = String(repeating: "v", count: 43)
        let challenge = PKCE.challenge(for: verifier)
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil, codeChallenge: challenge)
        // Another request, without a challenge or with its own: the first binding stays.
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        try await fixture.codes.request(
            Self.phone, app: "demo", sourceIP: nil,
            codeChallenge: PKCE.challenge(for: String(repeating: "w", count: 43)))
        await #expect(throws: SignInError.codeRefused) {
            try await fixture.codes.verify(Self.phone, code: fixture.provider.code, sourceIP: nil, app: "demo")
        }
    }

    @Test func aRightVerifierUsesTheBoundCode() async throws {
        let fixture = try Fixture()
        let verifier = String(repeating: "v", count: 43)
        try await fixture.codes.request(
            Self.phone, app: "demo", sourceIP: nil, codeChallenge: PKCE.challenge(for: verifier))
        try await fixture.codes.verify(
            Self.phone, code: fixture.provider.code, codeVerifier: verifier, sourceIP: nil, app: "demo")
        #expect(try await fixture.store.scan(PhoneCodes.table, limit: nil).isEmpty)
        // After its 10 minutes, the issue is gone with the provider's code.
        try await fixture.codes.request(
            Self.phone, app: "demo", sourceIP: nil, codeChallenge: PKCE.challenge(for: verifier))
        fixture.clock.set(SessionFixtures.start + 601)
        await #expect(throws: SignInError.codeRefused) {
            try await fixture.codes.verify(
                Self.phone, code: fixture.provider.code, codeVerifier: verifier, sourceIP: nil, app: "demo")
        }
    }

    @Test func aCallNeedsAProvider() async throws {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        let codes = PhoneCodes(
            store: store, clock: clock, sender: OutboxSender(store: store, clock: clock),
            secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)))
        await #expect(throws: SignInError.invalidField("channel", "\"call\" needs SMS_DELIVERY=twilio")) {
            try await codes.request(Self.phone, app: "demo", sourceIP: nil, channel: .call)
        }
        #expect(try await store.scan(OutboxSender.table, limit: nil).isEmpty)
        #expect(throws: SignInError.invalidField("channel", "must be \"sms\" or \"call\"")) {
            try PhoneCodeChannel(field: "fax")
        }
    }
}
