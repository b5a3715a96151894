import AuthKit
import GatehouseJSON
import Store
import StoreCore
import Testing

/// What bounds a phone factor's texts and tries: its challenges spend the phone sign-in's own
/// send limits (per number and source, per source, per range) and the hourly budget, and a
/// session's own allowance; wrong codes count as a TOTP factor's do, and 5 at one challenge.
struct PhoneFactorLimitsTests {
    /// One count per number and source for sign-in codes and factor codes: a sign-in code asked
    /// for, two challenges, and the next challenge is refused; nothing is written or texted for
    /// it. Another source is counted apart.
    @Test func challengesSpendThePhoneSignInsLimitPerNumberAndSource() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        try await fixture.codes.request(
            PhoneFactorsFixture.number, app: "demo", sourceIP: PhoneFactorsFixture.source)
        _ = try await fixture.challenge(factor, bearer: bearer)
        _ = try await fixture.challenge(factor, bearer: bearer)
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.challenge(factor, bearer: bearer)
        }
        #expect(try await fixture.texts().count == 3)
        let challenges = try await fixture.base.store.scan(Factors.table, limit: nil).filter { $0["factorId"] != nil }
        #expect(challenges.count == 2)
        _ = try await fixture.challenge(factor, bearer: bearer, source: "198.51.100.20")
        #expect(try await fixture.texts().count == 4)
    }

    /// A loop of challenges by one session (the owner's, or one taken with the password) from
    /// ever new sources stops at the session's 5 an hour; the owner's other session still can.
    @Test func oneSessionCannotTextPastItsAllowanceFromManySources() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, owner) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(owner)
        let (_, taken) = try await fixture.base.signIn()
        for index in 0..<PhoneFactors.sendsPerSession.limit {
            _ = try await fixture.challenge(factor, bearer: taken, source: "198.51.100.\(index)")
        }
        await #expect(throws: SignInError.self) {
            try await fixture.challenge(factor, bearer: taken, source: "198.51.100.99")
        }
        #expect(try await fixture.texts().count == PhoneFactors.sendsPerSession.limit)
        _ = try await fixture.challenge(factor, bearer: owner)
        #expect(try await fixture.texts().count == PhoneFactors.sendsPerSession.limit + 1)
    }

    /// New sign-ins buy no more texts: the user's sessions together stop at 10 an hour, from
    /// ever new sources, and nothing is written or texted past it.
    @Test func aUsersSessionsTogetherCannotTextPastTheUsersAllowance() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, first) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(first)
        var index = 0
        while index < PhoneFactors.sendsPerUser.limit {
            let (_, session) = try await fixture.base.signIn()
            _ = try await fixture.challenge(factor, bearer: session, source: "198.51.100.\(index)")
            index += 1
        }
        let (_, another) = try await fixture.base.signIn()
        await #expect(throws: SignInError.self) {
            try await fixture.challenge(factor, bearer: another, source: "198.51.100.99")
        }
        #expect(try await fixture.texts().count == PhoneFactors.sendsPerUser.limit)
    }

    @Test func challengesSpendTheHourlyBudget() async throws {
        let fixture = try await PhoneFactorsFixture(budget: SendBudget(perApp: 2, total: 100))
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        _ = try await fixture.challenge(factor, bearer: bearer)
        _ = try await fixture.challenge(factor, bearer: bearer)
        await #expect(throws: SignInError.sendBudgetSpent(retryAfter: 3600)) {
            try await fixture.challenge(factor, bearer: bearer)
        }
        #expect(try await fixture.texts().count == 2)
    }

    /// Wrong codes: 5 a factor in 5 minutes (then even the right one waits), and 5 a challenge
    /// whatever the window; the owner's next challenge works.
    @Test func wrongCodesAreLimitedPerFactorAndPerChallenge() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        fixture.base.clock.set(SessionFixtures.start + 100)
        let challenge = try await fixture.challenge(factor, bearer: bearer)
        let code = try #require(try await fixture.texts().last)
        for _ in 0..<Factors.guessesPerFactor.limit {
            await #expect(throws: FactorError.phoneCodeRefused) {
                try await fixture.verify(
                    factor, challenge: challenge, code: PhoneFactorsFixture.wrong(code), bearer: bearer)
            }
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 200)) {
            try await fixture.verify(factor, challenge: challenge, code: code, bearer: bearer)
        }
        // The factor's next window, the challenge still live: it had its 5 tries.
        fixture.base.clock.set(SessionFixtures.start + Factors.guessesPerFactor.window)
        await #expect(throws: FactorError.phoneCodeRefused) {
            try await fixture.verify(factor, challenge: challenge, code: code, bearer: bearer)
        }
        let next = try await fixture.challenge(factor, bearer: bearer)
        let raised = try await fixture.verify(
            factor, challenge: next, code: try #require(try await fixture.texts().last), bearer: bearer)
        #expect(try fixture.base.claims(raised.accessToken)["aal"] == "aal2")
    }
}
