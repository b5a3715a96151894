import AuthKit
import GatehouseJSON
import Store
import StoreCore
import Testing

/// Recovery codes: ten shown once at the first enrolment, kept as keyed digests, usable once a
/// factor is verified, each once, raising the session to `aal2`, limited, mailed about, and gone
/// with the last factor.
struct RecoveryCodesTests {
    /// A fixture whose user has a verified factor, its codes, and the session that verified it.
    private func protected() async throws -> (FactorsFixture, [String], Factor, AccessTokens.Bearer) {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let enrollment = try await fixture.factors.enroll(
            friendlyName: "phone app", issuer: "Gatehouse", for: fixture.user, bearer: bearer)
        fixture.clock.set(SessionFixtures.start + 40)
        let secret = try #require(Base32.decode(enrollment.secret))
        let raised = try await fixture.verify(enrollment.factor, code: fixture.code(secret), bearer: bearer)
        return (fixture, enrollment.recoveryCodes, enrollment.factor, try await fixture.bearer(raised.accessToken))
    }

    private func use(
        _ fixture: FactorsFixture, _ code: String, bearer: AccessTokens.Bearer, sourceIP: String? = "203.0.113.9"
    ) async throws -> Factors.RecoveryCodeUse {
        try await fixture.factors.useRecoveryCode(code, user: fixture.user, bearer: bearer, sourceIP: sourceIP)
    }

    @Test func tenCodesAreShownOnlyAtTheFirstEnrolmentAndStoredOnlyAsDigests() async throws {
        let (fixture, codes, _, aal2) = try await protected()
        #expect(codes.count == 10 && Set(codes).count == 10)
        #expect(codes.allSatisfy { $0.count == 11 && Array($0)[5] == "-" && RecoveryCodes.normalized($0) != nil })
        let stored = "\(try await fixture.store.scan(Factors.table, limit: nil))"
        for code in codes {
            let normalized = try #require(RecoveryCodes.normalized(code))
            #expect(!stored.contains(code) && !stored.contains(normalized))
        }
        // A second factor, from the aal2 session, comes with none.
        let second = try await fixture.factors.enroll(
            friendlyName: "backup", issuer: "Gatehouse", for: fixture.user, bearer: aal2)
        #expect(second.recoveryCodes.isEmpty)
        #expect(try await fixture.factors.recoveryCodesLeft(userID: fixture.user.id) == 10)
    }

    @Test func aCodeRaisesAnAAL1SessionToAAL2OnceOnly() async throws {
        let (fixture, codes, _, _) = try await protected()
        let (_, bearer) = try await fixture.signIn()
        #expect(bearer.sessionAAL == "aal1")
        // Typed in capitals, without the dash: the same code.
        let typed = String(codes[0].uppercased().filter { $0 != "-" })
        let used = try await use(fixture, typed, bearer: bearer)
        let claims = try fixture.claims(used.session.accessToken)
        #expect(claims["aal"] == "aal2" && claims["sid"] == .string(bearer.sessionID))
        let methods = claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue } ?? []
        #expect(methods.contains("recovery_code") && methods.contains("otp"))
        #expect(used.remaining == 9)
        #expect(try await fixture.factors.recoveryCodesLeft(userID: fixture.user.id) == 9)
        let (_, other) = try await fixture.signIn()
        await #expect(throws: FactorError.recoveryCodeInvalid) { _ = try await use(fixture, codes[0], bearer: other) }
    }

    /// Two uses of one code at the same moment: one raises its session, the other is refused.
    @Test func aCodeUsedTwiceAtOnceWorksOnce() async throws {
        let (fixture, codes, _, _) = try await protected()
        let (_, first) = try await fixture.signIn()
        let (_, second) = try await fixture.signIn()
        async let one = try? use(fixture, codes[1], bearer: first)
        async let two = try? use(fixture, codes[1], bearer: second)
        let results = await [one, two]
        #expect(results.compactMap { $0 }.count == 1)
        #expect(try await fixture.factors.recoveryCodesLeft(userID: fixture.user.id) == 9)
    }

    @Test func codesAreUnusableBeforeTheirFactorIsVerified() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let enrollment = try await fixture.factors.enroll(
            friendlyName: "phone app", issuer: "Gatehouse", for: fixture.user, bearer: bearer)
        await #expect(throws: FactorError.recoveryCodeInvalid) {
            _ = try await use(fixture, enrollment.recoveryCodes[0], bearer: bearer)
        }
        #expect(try await fixture.factors.recoveryCodesLeft(userID: fixture.user.id) == nil)
    }

    /// Codes of an enrolment that was never verified (abandoned, or made by someone with the
    /// password before the owner's) match nothing once the owner's factor is verified; the owner's
    /// own enrolment's codes do.
    @Test func onlyTheVerifiedEnrolmentsCodesCount() async throws {
        let fixture = try await FactorsFixture()
        let (_, planter) = try await fixture.signIn()
        let planted = try await fixture.factors.enroll(
            friendlyName: "planted", issuer: "Gatehouse", for: fixture.user, bearer: planter)
        let (_, owner) = try await fixture.signIn()
        let own = try await fixture.factors.enroll(
            friendlyName: "mine", issuer: "Gatehouse", for: fixture.user, bearer: owner)
        #expect(!planted.recoveryCodes.isEmpty && Set(planted.recoveryCodes).isDisjoint(with: own.recoveryCodes))
        fixture.clock.set(SessionFixtures.start + 40)
        let secret = try #require(Base32.decode(own.secret))
        _ = try await fixture.verify(own.factor, code: fixture.code(secret), bearer: owner)
        let (_, later) = try await fixture.signIn()
        await #expect(throws: FactorError.recoveryCodeInvalid) {
            _ = try await use(fixture, planted.recoveryCodes[0], bearer: later)
        }
        let codeItems = try await fixture.store.scan(Factors.table, limit: nil).filter {
            $0["entry"]?.stringValue?.hasPrefix("recovery:") == true
        }
        #expect(codeItems.count == 10)
        _ = try await use(fixture, own.recoveryCodes[0], bearer: later)
    }

    /// Wrong codes: 5 an hour per user, whatever the source; a right code takes its try back,
    /// and the owner's next code works once the window ends.
    @Test func wrongCodesAreLimitedPerUserAndARightOneIsTakenBack() async throws {
        let (fixture, codes, _, _) = try await protected()
        let (_, bearer) = try await fixture.signIn()
        for index in 0..<4 {
            await #expect(throws: FactorError.recoveryCodeInvalid) {
                _ = try await use(fixture, "zzzzz-zzzz\(index)", bearer: bearer, sourceIP: "198.51.100.\(index)")
            }
        }
        _ = try await use(fixture, codes[2], bearer: bearer)
        await #expect(throws: FactorError.recoveryCodeInvalid) {
            _ = try await use(fixture, "zzzzz-zzzzz", bearer: bearer, sourceIP: "198.51.100.9")
        }
        await #expect(throws: SignInError.self) { _ = try await use(fixture, codes[3], bearer: bearer) }
        fixture.clock.set(SessionFixtures.start + 40 + Factors.recoveryGuessesPerUser.window)
        let (_, fresh) = try await fixture.signIn()
        #expect(try await use(fixture, codes[3], bearer: fresh).remaining == 8)
    }

    /// A source's wrong codes across users count against it alone, before any user's.
    @Test func wrongCodesAreLimitedPerSource() async throws {
        let (fixture, _, _, _) = try await protected()
        let (_, bearer) = try await fixture.signIn()
        let rule = Factors.recoveryGuessesPerSource
        let limiter = RateLimiter(store: fixture.store, clock: fixture.clock)
        for _ in 0..<rule.limit { _ = try await limiter.hit(rule, subject: "203.0.113.9") }
        await #expect(throws: SignInError.self) { _ = try await use(fixture, "zzzzz-zzzzz", bearer: bearer) }
        // The owner's own tries were not spent by that source.
        for _ in 0..<Factors.recoveryGuessesPerUser.limit {
            await #expect(throws: FactorError.recoveryCodeInvalid) {
                _ = try await use(fixture, "zzzzz-zzzzz", bearer: bearer, sourceIP: "198.51.100.1")
            }
        }
    }

    @Test func theOwnerIsMailedWithoutTheCode() async throws {
        let (fixture, codes, _, _) = try await protected()
        let (_, bearer) = try await fixture.signIn()
        let used = try await use(fixture, codes[4], bearer: bearer)
        let app = try #require(try await fixture.sessions.apps.app(id: "demo"))
        let links = EmailTokens(
            store: fixture.store, clock: fixture.clock,
            sender: OutboxSender(store: fixture.store, clock: fixture.clock), issuer: "http://127.0.0.1:3000")
        try await Factors.mailRecoveryNotice(to: fixture.user, app: app, remaining: used.remaining, links: links)
        let mail = try await fixture.store.scan(OutboxSender.table, limit: nil)
        #expect(mail.count == 1 && mail.first?["recipient"] == "ada@example.com")
        let text = try #require(mail.first?["text"]?.stringValue)
        #expect(text.contains("recovery code was just used") && text.contains("9 of your recovery codes"))
        let normalized = try #require(RecoveryCodes.normalized(codes[4]))
        #expect(!"\(mail)".contains(codes[4]) && !"\(mail)".contains(normalized))
    }

    /// Unenrolling the last verified factor takes the codes along, and lowers the sessions a code
    /// raised.
    @Test func theCodesGoWithTheLastFactor() async throws {
        let (fixture, codes, factor, aal2) = try await protected()
        let (_, bearer) = try await fixture.signIn()
        let used = try await use(fixture, codes[5], bearer: bearer)
        try await fixture.factors.unenroll(factor.id, bearer: aal2)
        let left = try await fixture.store.scan(Factors.table, limit: nil).compactMap { $0["entry"]?.stringValue }
        #expect(!left.contains { $0.hasPrefix("recovery") })
        let refreshed = try await fixture.sessions.refresh(token: used.session.refreshToken)
        #expect(try fixture.claims(refreshed.accessToken)["aal"] == "aal1")
        await #expect(throws: FactorError.recoveryCodeInvalid) { _ = try await use(fixture, codes[6], bearer: bearer) }
    }

    @Test func regeneratingNeedsAAL2AndReplacesTheSet() async throws {
        let (fixture, codes, _, aal2) = try await protected()
        let (_, aal1) = try await fixture.signIn()
        await #expect(throws: FactorError.insufficientAAL(enrolling: true)) {
            _ = try await fixture.factors.regenerateRecoveryCodes(bearer: aal1)
        }
        let fresh = try await fixture.factors.regenerateRecoveryCodes(bearer: aal2)
        #expect(fresh.count == 10 && Set(fresh).isDisjoint(with: codes))
        let codeItems = try await fixture.store.scan(Factors.table, limit: nil).filter {
            $0["entry"]?.stringValue?.hasPrefix("recovery:") == true
        }
        #expect(codeItems.count == 10, "the replaced set's codes are gone")
        await #expect(throws: FactorError.recoveryCodeInvalid) { _ = try await use(fixture, codes[0], bearer: aal1) }
        #expect(try await use(fixture, fresh[0], bearer: aal1).remaining == 9)
    }
}
