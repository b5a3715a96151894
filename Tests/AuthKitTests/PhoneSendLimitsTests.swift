import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// What bounds SMS pumping: the destinations texts and calls may go to, a limit per number
/// range, and the hourly budgets per app and per deployment. Before, only 3 texts per number an
/// hour and 30 requests per source in 5 minutes limited them: 90 numbers of one premium range
/// from three addresses were all texted.
struct PhoneSendLimitsTests {
    struct Fixture {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let codes: PhoneCodes

        init(budget: SendBudget = SendBudget(perApp: 1_000, total: 1_000), calls: Bool = false) throws {
            store = try SessionFixtures.store(clock: clock)
            codes = PhoneCodes(
                store: store, clock: clock, sender: OutboxSender(store: store, clock: clock),
                secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)),
                provider: calls ? PhoneCodesProviderTests.FakeProvider() : nil, budget: budget)
        }

        var texts: Int {
            get async throws { try await store.scan(OutboxSender.table, limit: nil).count }
        }
    }

    /// The premium and satellite range of the review (`+88216…`) and others are never texted, and
    /// numbers outside the allowed countries are not either; nothing is counted or sent.
    @Test(
        arguments: [
            "+8821612345678", "+881612345678", "+19005550100", "+447011234567", "+979123456789", "+18005550100",
            "+15005550100", "+16225550100",
        ])
    func premiumAndSatelliteRangesAreNeverTexted(number: String) async throws {
        let fixture = try Fixture()
        let everywhere = PhoneDestinations(textCountries: nil, callCountries: nil)
        #expect(throws: SignInError.self) { try everywhere.check(PhoneNumber(number)!, channel: .sms) }
        await #expect(throws: SignInError.self) {
            try await fixture.codes.request(PhoneNumber(number)!, app: "demo", sourceIP: "192.0.2.1")
        }
        #expect(try await fixture.texts == 0)
        #expect(try await fixture.store.scan(RateLimiter.table, limit: nil).isEmpty)
    }

    /// The design documents' markets by default: the United States, Saudi Arabia, the Emirates
    /// and Kuwait; Canada and Jamaica share `+1` and are not the United States.
    @Test func onlyTheAllowedCountriesAreTexted() throws {
        let destinations = try PhoneDestinations(environment: [:])
        for allowed in ["+14155550100", "+966501234567", "+971501234567", "+96550123456"] {
            #expect(throws: Never.self) { try destinations.check(PhoneNumber(allowed)!, channel: .sms) }
        }
        for refused in ["+33612345678", "+14165550100", "+18765550100", "+447911123456"] {
            #expect(throws: SignInError.self) { try destinations.check(PhoneNumber(refused)!, channel: .sms) }
        }
        let configured = try PhoneDestinations(environment: ["SMS_COUNTRIES": "fr, CA", "VOICE_COUNTRIES": "*"])
        try configured.check(PhoneNumber("+33612345678")!, channel: .sms)
        try configured.check(PhoneNumber("+14165550100")!, channel: .sms)
        #expect(throws: SignInError.self) { try configured.check(PhoneNumber("+14155550100")!, channel: .sms) }
        #expect(throws: SettingsError.invalid("SMS_COUNTRIES", "\"XX\" is not an ISO 3166-1 alpha-2 country code")) {
            try PhoneDestinations(environment: ["SMS_COUNTRIES": "US,XX"])
        }
    }

    /// Calls go only where calls are allowed (the United States by default), even to a country
    /// texts may go to.
    @Test func callsGoOnlyWhereCallsAreAllowed() async throws {
        let fixture = try Fixture(calls: true)
        await #expect(
            throws: SignInError.invalidField("channel", "calls to this number's country are not allowed here")
        ) {
            try await fixture.codes.request(
                PhoneNumber("+966501234567")!, app: "demo", sourceIP: "192.0.2.1", channel: .call)
        }
        try await fixture.codes.request(PhoneNumber("+966501234567")!, app: "demo", sourceIP: "192.0.2.1")
        try await fixture.codes.request(
            PhoneNumber("+14155550100")!, app: "demo", sourceIP: "192.0.2.1", channel: .call)
    }

    /// One range cannot be walked from one source: 10 fresh codes an hour to the numbers sharing
    /// all but their last 4 digits; another source, or another range, is not affected, so no
    /// stranger can use up an owner's range.
    @Test func oneSourceGetsTenFreshCodesAnHourPerRange() async throws {
        let fixture = try Fixture()
        for index in 0..<PhoneCodes.perPrefix.limit {
            let number = PhoneNumber("+1415555\(PhoneCodes.sixDigits(UInt32(index)).suffix(4))")!
            try await fixture.codes.request(number, app: "demo", sourceIP: "198.51.100.1")
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.codes.request(PhoneNumber("+14155559999")!, app: "demo", sourceIP: "198.51.100.1")
        }
        try await fixture.codes.request(PhoneNumber("+14155560000")!, app: "demo", sourceIP: "198.51.100.1")
        try await fixture.codes.request(PhoneNumber("+14155559999")!, app: "demo", sourceIP: "192.0.2.1")
        #expect(try await fixture.texts == PhoneCodes.perPrefix.limit + 2)
    }

    /// Past an app's hourly budget its requests are refused with the budget's own error and
    /// nothing is sent; another app still sends until the deployment's budget is spent too.
    @Test func theHourlyBudgetsStopSendingPerAppAndPerDeployment() async throws {
        let fixture = try Fixture(budget: SendBudget(perApp: 3, total: 5))
        func request(_ index: Int, app: String) async throws {
            let number = PhoneNumber("+1415\(PhoneCodes.sixDigits(UInt32(index)).suffix(3))0100")!
            try await fixture.codes.request(number, app: app, sourceIP: "198.51.100.\(index)")
        }
        for index in 0..<3 { try await request(index, app: "demo") }
        await #expect(throws: SignInError.sendBudgetSpent(retryAfter: 3600)) { try await request(3, app: "demo") }
        try await request(4, app: "other")
        try await request(5, app: "other")
        await #expect(throws: SignInError.sendBudgetSpent(retryAfter: 3600)) { try await request(6, app: "other") }
        #expect(try await fixture.texts == 5)
        fixture.clock.set(SessionFixtures.start + 3600)
        try await request(7, app: "demo")
        #expect(SignInError.sendBudgetSpent(retryAfter: 1).code == "send_budget_spent")
        #expect(throws: SettingsError.self) { try SendBudget(environment: ["SMS_HOURLY_BUDGET": "0"]) }
        #expect(try SendBudget(environment: ["SMS_HOURLY_BUDGET_PER_APP": "7"]).perApp.limit == 7)
    }
}
