import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// `PhoneCodes.prepare` (Supabase's `/otp {phone, create_user: false}`): everything a request
/// counts is counted before the answer, whatever the number, so no limit tells whether the
/// number has a user; the text is the work the caller runs after it, for a number that has one.
struct PhoneCodesPrepareTests {
    @Test func everyLimitIsCountedBeforeTheAnswerWhetherOrNotTheCodeIsSent() async throws {
        let fixture = try PhoneCodesTests.Fixture()
        let unknown = try #require(PhoneNumber("+14155550177"))
        // Three requests for a number whose work never runs (no user): the number-and-source
        // limit is spent as by three that texted, and the fourth request is refused.
        for _ in 0..<PhoneCodes.perPhone.limit {
            _ = try await fixture.codes.prepare(unknown, app: "demo", sourceIP: "192.0.2.1")
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.codes.request(unknown, app: "demo", sourceIP: "192.0.2.1")
        }
        #expect(
            try await fixture.store.query(
                OutboxSender.table, partition: .string(unknown.value), sortKey: nil, limit: nil, ascending: true
            ).isEmpty)
        // A number whose work runs: texted a code that works.
        let text = try await fixture.codes.prepare(PhoneCodesTests.phone, app: "demo", sourceIP: "192.0.2.1")
        try await text()
        try await fixture.codes.verify(
            PhoneCodesTests.phone, code: try await fixture.lastCode(), sourceIP: "192.0.2.1", app: "demo")
    }
}
