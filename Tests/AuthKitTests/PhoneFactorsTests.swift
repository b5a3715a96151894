import AuthKit
import GatehouseJSON
import Store
import StoreCore
import Synchronization
import Testing

/// Phone factors: enrolled with a number, each challenge a code texted to it, verified once from
/// the session that made the challenge within 5 minutes, raising it to `aal2` (`mfa/phone`).
struct PhoneFactorsTests {
    @Test func aTextedCodeRaisesTheSameSessionToAAL2() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (first, bearer) = try await fixture.base.signIn()
        let (planted, _) = try await fixture.base.enroll(bearer, name: "planted")
        let factor = try await fixture.enroll(bearer)
        #expect(factor.type == "phone" && factor.phone == "+14155550123" && !factor.verified)
        let challenge = try await fixture.challenge(factor, bearer: bearer)
        #expect(challenge.expiresAt == SessionFixtures.start + Factors.challengeLifetime)
        let code = try #require(try await fixture.texts().last)
        #expect(code.count == 6)
        // The store holds no secret of a phone factor, and nothing of the code.
        let stored = try await fixture.base.store.scan(Factors.table, limit: nil)
        let items = stored.filter { $0["factorType"] == "phone" || $0["factorId"] == .string(factor.id) }
        #expect(items.count == 2 && items.allSatisfy { $0["secret"] == nil })
        let challengeItem = try #require(items.first { $0["factorId"] != nil })
        #expect(Set(challengeItem.keys) == ["userId", "entry", "id", "factorId", "sessionId", "expiresAt", "ttl"])

        fixture.base.clock.set(SessionFixtures.start + 40)
        let raised = try await fixture.verify(factor, challenge: challenge, code: code, bearer: bearer)
        let claims = try fixture.base.claims(raised.accessToken)
        #expect(claims["aal"] == "aal2" && claims["sid"] == .string(bearer.sessionID))
        #expect(claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue } == ["mfa/phone", "otp"])
        #expect(raised.refreshToken != first.refreshToken)
        let verified = try await fixture.base.factors.factor(factor.id, userID: fixture.base.user.id)
        #expect(verified.verified && verified.phone == "+14155550123")
        // The other unverified factor is gone, as at a TOTP factor's verify.
        #expect(try await fixture.base.factors.list(userID: fixture.base.user.id).map(\.id) == [factor.id])
        #expect(planted.id != factor.id)
    }

    /// A user whose first factor is a phone gets the recovery codes a first TOTP enrolment
    /// gets: shown at the enrolment, in force once the phone is verified, each raising an aal1
    /// session once.
    @Test func aPhoneFirstUserGetsRecoveryCodesThatComeInForceWithIt() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        let (factor, codes) = try await fixture.phoneFactors.enroll(
            PhoneFactorsFixture.number, friendlyName: "my phone", for: fixture.base.user, bearer: bearer)
        #expect(Set(codes).count == RecoveryCodes.count)
        let challenge = try await fixture.challenge(factor, bearer: bearer)
        _ = try await fixture.verify(
            factor, challenge: challenge, code: try #require(try await fixture.texts().last), bearer: bearer)
        #expect(try await fixture.base.factors.recoveryCodesLeft(userID: fixture.base.user.id) == RecoveryCodes.count)
        let (_, later) = try await fixture.base.signIn()
        let use = try await fixture.base.factors.useRecoveryCode(
            try #require(codes.first), user: fixture.base.user, bearer: later, sourceIP: PhoneFactorsFixture.source)
        #expect(use.remaining == RecoveryCodes.count - 1)
        // A later enrolment (a second factor) shows none.
        let raised = try await fixture.base.bearer(use.session.accessToken)
        let (_, none) = try await fixture.phoneFactors.enroll(
            try #require(PhoneNumber("+14155550124")), friendlyName: "work phone", for: fixture.base.user,
            bearer: raised)
        #expect(none.isEmpty)
    }

    @Test func aSpentChallengeIsNotReplayedAndAChallengeExpires() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        let challenge = try await fixture.challenge(factor, bearer: bearer)
        let code = try #require(try await fixture.texts().last)
        let raised = try await fixture.base.bearer(
            try await fixture.verify(factor, challenge: challenge, code: code, bearer: bearer).accessToken)
        await #expect(throws: FactorError.challengeNotFound) {
            try await fixture.verify(factor, challenge: challenge, code: code, bearer: raised)
        }
        // A challenge's code works for 5 minutes, no longer.
        fixture.base.clock.set(SessionFixtures.start + 60)
        let late = try await fixture.challenge(factor, bearer: raised)
        let lateCode = try #require(try await fixture.texts().last)
        #expect(late.expiresAt == SessionFixtures.start + 60 + Factors.challengeLifetime)
        fixture.base.clock.set(SessionFixtures.start + 60 + Factors.challengeLifetime)
        await #expect(throws: FactorError.challengeExpired) {
            try await fixture.verify(factor, challenge: late, code: lateCode, bearer: raised)
        }
    }

    /// Another user's session finds neither the factor (nothing is texted or counted for it) nor
    /// the challenge; another session of the owner cannot verify this session's challenge.
    @Test func aChallengeIsTheOwnersSessionsOnly() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        let mallory = try await fixture.base.sessions.users.findOrCreate(
            email: try #require(EmailAddress("mallory@example.com"))
        ).user
        let (_, strangers) = try await fixture.base.signIn(mallory)
        await #expect(throws: FactorError.factorNotFound) {
            try await fixture.challenge(factor, bearer: strangers)
        }
        #expect(try await fixture.texts().isEmpty)
        #expect(try await fixture.base.store.scan(RateLimiter.table, limit: nil).isEmpty)

        let challenge = try await fixture.challenge(factor, bearer: bearer)
        let code = try #require(try await fixture.texts().last)
        await #expect(throws: FactorError.factorNotFound) {
            try await fixture.verify(factor, challenge: challenge, code: code, bearer: strangers, user: mallory)
        }
        let (_, sibling) = try await fixture.base.signIn()
        await #expect(throws: FactorError.challengeNotFound) {
            try await fixture.verify(factor, challenge: challenge, code: code, bearer: sibling)
        }
        _ = try await fixture.verify(factor, challenge: challenge, code: code, bearer: bearer)
    }

    /// supabase/auth's rules: a verified phone factor of the number is refused, unverified ones
    /// of it are replaced; a second factor needs aal2 once one is verified; numbers that may not
    /// be texted are refused; a factor of one kind is not found by the other kind's routes.
    @Test func enrolmentFollowsSupabasesPhoneFactorRules() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        let replaced = try await fixture.enroll(bearer)
        let factor = try await fixture.enroll(bearer)
        #expect(try await fixture.base.factors.list(userID: fixture.base.user.id).map(\.id) == [factor.id])
        await #expect(throws: SignInError.self) {
            try await fixture.enroll(bearer, number: PhoneNumber("+33612345678")!, name: "abroad")
        }
        let (totp, _) = try await fixture.base.enroll(bearer, name: "app")
        await #expect(throws: FactorError.factorNotFound) {
            try await fixture.base.factors.verify(
                factor.id, challengeID: "x", code: "123456", user: fixture.base.user, bearer: bearer, sourceIP: nil)
        }
        await #expect(throws: FactorError.factorNotFound) {
            try await fixture.phoneFactors.challenge(totp.id, bearer: bearer, sourceIP: nil)
        }
        let challenge = try await fixture.challenge(factor, bearer: bearer)
        let raised = try await fixture.base.bearer(
            try await fixture.verify(
                factor, challenge: challenge, code: try #require(try await fixture.texts().last), bearer: bearer
            ).accessToken)
        await #expect(throws: FactorError.phoneFactorExists) { try await fixture.enroll(raised) }
        let (_, plain) = try await fixture.base.signIn()
        await #expect(throws: FactorError.insufficientAAL(enrolling: true)) {
            try await fixture.enroll(plain, number: PhoneNumber("+14155550124")!, name: "other")
        }
        _ = try await fixture.enroll(raised, number: PhoneNumber("+14155550124")!, name: "other")
        #expect(replaced.id != factor.id)
    }

    @Test func aUserHasAtMostTenFactors() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        for index in 0..<Factors.maximumFactors {
            _ = try await fixture.enroll(bearer, number: PhoneNumber("+1415555014\(index)")!, name: "phone \(index)")
        }
        await #expect(throws: FactorError.tooManyFactors) {
            try await fixture.enroll(bearer, number: PhoneNumber("+14155550150")!, name: "one more")
        }
        await #expect(throws: FactorError.nameConflict("phone 0")) {
            try await fixture.enroll(bearer, number: PhoneNumber("+14155550151")!, name: "phone 0")
        }
    }

    /// Unenrolled, the phone factor's sessions go back to aal1 and lose its `amr` entry.
    @Test func unenrollingLowersTheSessionsItRaised() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        let challenge = try await fixture.challenge(factor, bearer: bearer)
        let raised = try await fixture.verify(
            factor, challenge: challenge, code: try #require(try await fixture.texts().last), bearer: bearer)
        try await fixture.base.factors.unenroll(factor.id, bearer: try await fixture.base.bearer(raised.accessToken))
        let refreshed = try await fixture.base.sessions.refresh(token: raised.refreshToken)
        let claims = try fixture.base.claims(refreshed.accessToken)
        #expect(
            claims["aal"] == "aal1" && claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue } == ["otp"])
    }

    /// With Twilio Verify, the provider sends and checks the code: nothing is texted by
    /// Gatehouse, Gatehouse's limits stay in front, and a right code raises the session.
    @Test func theProvidersCodeVerifies() async throws {
        let provider = PhoneCodesProviderTests.FakeProvider()
        let fixture = try await PhoneFactorsFixture(provider: provider)
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        let challenge = try await fixture.challenge(factor, bearer: bearer)
        #expect(provider.calls.withLock { $0.starts } == [.sms])
        #expect(try await fixture.texts().isEmpty)
        await #expect(throws: FactorError.phoneCodeRefused) {
            try await fixture.verify(factor, challenge: challenge, code: "000000", bearer: bearer)
        }
        let raised = try await fixture.verify(factor, challenge: challenge, code: provider.code, bearer: bearer)
        #expect(try fixture.base.claims(raised.accessToken)["aal"] == "aal2")
        #expect(provider.calls.withLock { $0.checks } == 2)
    }
}
