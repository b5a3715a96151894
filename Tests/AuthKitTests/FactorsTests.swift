import AuthKit
import GatehouseJSON
import Store
import StoreCore
import Testing

/// TOTP factors: enrolled, challenged by a session, verified once per code, raising that same
/// session to `aal2`, limited, bound to their user and session, and expiring.
struct FactorsTests {
    @Test func aVerifiedCodeRaisesTheSameSessionToAAL2AndRefreshKeepsIt() async throws {
        let fixture = try await FactorsFixture()
        let (first, bearer) = try await fixture.signIn()
        let enrollment = try await fixture.factors.enroll(
            friendlyName: "phone app", issuer: "Gatehouse", for: fixture.user, bearer: bearer)
        #expect(enrollment.uri.hasPrefix("otpauth://totp/Gatehouse:ada%40example.com?algorithm=SHA1&digits=6"))
        #expect(enrollment.uri.hasSuffix("&secret=\(enrollment.secret)") && enrollment.secret.count == 32)
        // The secret is stored sealed, never as itself.
        let stored = try await fixture.store.scan(Factors.table, limit: nil).filter {
            $0["entry"]?.stringValue?.hasPrefix("factor:") == true
        }
        #expect(stored.count == 1 && stored[0]["status"] == "unverified" && stored[0]["ttl"] != nil)
        #expect(!"\(stored[0])".contains(enrollment.secret))
        let secret = try #require(Base32.decode(enrollment.secret))

        fixture.clock.set(SessionFixtures.start + 40)
        let raised = try await fixture.verify(enrollment.factor, code: fixture.code(secret), bearer: bearer)
        let claims = try fixture.claims(raised.accessToken)
        #expect(claims["aal"] == "aal2" && claims["sid"] == .string(bearer.sessionID))
        let methods = claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue }
        #expect(methods == ["totp", "otp"])
        #expect(raised.refreshToken != first.refreshToken)
        let factor = try await fixture.factors.factor(enrollment.factor.id, userID: fixture.user.id)
        #expect(factor.verified && factor.lastStep == TOTP.step(at: SessionFixtures.start + 40))
        #expect(try await fixture.store.scan(Factors.table, limit: nil).allSatisfy { $0["ttl"] == nil })

        fixture.clock.set(SessionFixtures.start + 100)
        let refreshed = try await fixture.sessions.refresh(token: raised.refreshToken)
        #expect(try fixture.claims(refreshed.accessToken)["aal"] == "aal2")
        #expect(try await fixture.bearer(refreshed.accessToken).sessionAAL == "aal2")
    }

    /// Deleting the account deletes its factors and their challenges too.
    @Test func anAccountsDeletionLeavesNoFactor() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let (factor, _) = try await fixture.enroll(bearer)
        _ = try await fixture.factors.challenge(factor.id, bearer: bearer)
        // The factor, its challenge and its ten recovery codes.
        #expect(try await fixture.store.scan(Factors.table, limit: nil).count == 12)
        try await Accounts(store: fixture.store, clock: fixture.clock).delete(userID: fixture.user.id)
        #expect(try await fixture.store.scan(Factors.table, limit: nil).isEmpty)
    }

    /// A factor enrolled while the user had none verified (by someone with the password, say)
    /// goes when the owner verifies theirs: it can never be verified from a password's session
    /// later and let its enroller past the owner's factor.
    @Test func aFactorEnrolledBeforeTheOwnersIsGoneOnceTheOwnersIsVerified() async throws {
        let fixture = try await FactorsFixture()
        let (_, first) = try await fixture.signIn()
        let (planted, plantedSecret) = try await fixture.enroll(first, name: "planted")
        let (_, owner) = try await fixture.signIn()
        let (own, ownSecret) = try await fixture.enroll(owner, name: "mine")
        fixture.clock.set(SessionFixtures.start + 40)
        _ = try await fixture.verify(own, code: fixture.code(ownSecret), bearer: owner)
        #expect(try await fixture.factors.list(userID: fixture.user.id).map(\.id) == [own.id])
        let (_, later) = try await fixture.signIn()
        await #expect(throws: FactorError.factorNotFound) {
            _ = try await fixture.verify(planted, code: fixture.code(plantedSecret, offset: 1), bearer: later)
        }
    }

    /// Raising a session ends its refresh tokens from before: a copy taken then never refreshes
    /// into aal2; the raise's own token goes on, at aal2.
    @Test func theSessionsEarlierRefreshTokensEndWhenItIsRaised() async throws {
        let fixture = try await FactorsFixture()
        let (first, bearer) = try await fixture.signIn()
        let (factor, secret) = try await fixture.enroll(bearer)
        fixture.clock.set(SessionFixtures.start + 40)
        let raised = try await fixture.verify(factor, code: fixture.code(secret), bearer: bearer)
        await #expect(throws: RefreshError.invalidRefreshToken) {
            _ = try await fixture.sessions.refresh(token: first.refreshToken)
        }
        let refreshed = try await fixture.sessions.refresh(token: raised.refreshToken)
        #expect(try fixture.claims(refreshed.accessToken)["aal"] == "aal2")
    }

    @Test func aCodeWorksOnceAndAnOlderStepNeverAfterANewerOne() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let (factor, secret) = try await fixture.enroll(bearer)
        let code = fixture.code(secret)
        _ = try await fixture.verify(factor, code: code, bearer: bearer)
        await #expect(throws: FactorError.verificationFailed) {
            try await fixture.verify(factor, code: code, bearer: bearer)
        }
        // The previous step's code is within the skew but older than the one used.
        await #expect(throws: FactorError.verificationFailed) {
            try await fixture.verify(factor, code: fixture.code(secret, offset: -1), bearer: bearer)
        }
        // The next step's code (a clock a step ahead) is newer: it works, once.
        _ = try await fixture.verify(factor, code: fixture.code(secret, offset: 1), bearer: bearer)
        fixture.clock.set(SessionFixtures.start + 30)
        await #expect(throws: FactorError.verificationFailed) {
            try await fixture.verify(factor, code: fixture.code(secret), bearer: bearer)
        }
    }

    @Test func oneStepOfSkewEitherWay() async throws {
        for offset: Int64 in [-1, 1] {
            let fixture = try await FactorsFixture()
            let (_, bearer) = try await fixture.signIn()
            let (factor, secret) = try await fixture.enroll(bearer)
            _ = try await fixture.verify(factor, code: fixture.code(secret, offset: offset), bearer: bearer)
        }
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let (factor, secret) = try await fixture.enroll(bearer)
        for offset: Int64 in [-2, 2] {
            await #expect(throws: FactorError.verificationFailed) {
                try await fixture.verify(factor, code: fixture.code(secret, offset: offset), bearer: bearer)
            }
        }
    }

    @Test func wrongCodesAreLimitedPerFactorUntilTheWindowEnds() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let (factor, secret) = try await fixture.enroll(bearer)
        let wrong = fixture.code(secret) == "000000" ? "111111" : "000000"
        for _ in 0..<Factors.guessesPerFactor.limit {
            await #expect(throws: FactorError.verificationFailed) {
                try await fixture.verify(factor, code: wrong, bearer: bearer)
            }
        }
        // The limit is reached: even the right code is not compared.
        await #expect(throws: SignInError.self) {
            try await fixture.verify(factor, code: fixture.code(secret), bearer: bearer)
        }
        // The owner's next code works once the window ends, and the stored factor is untouched.
        fixture.clock.set(SessionFixtures.start + Factors.guessesPerFactor.window)
        #expect(try await fixture.factors.factor(factor.id, userID: fixture.user.id).verified == false)
        _ = try await fixture.verify(factor, code: fixture.code(secret), bearer: bearer)
    }

    @Test func wrongCodesAreLimitedPerUserAcrossFactorsAndPerSource() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        var refused = 0
        for index in 0..<4 {
            let (factor, secret) = try await fixture.enroll(bearer, name: "app \(index)")
            let wrong = fixture.code(secret) == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                do {
                    _ = try await fixture.verify(factor, code: wrong, bearer: bearer)
                } catch is SignInError {
                    refused += 1
                } catch {}
            }
        }
        // 20 tries, 15 compared: the user's limit, whatever the factors.
        #expect(refused == 20 - Factors.guessesPerUser.limit)

        // From one source, across users each far below their own limits: 30 wrong codes an hour.
        let source = "198.51.100.7"
        var sourceRefused = 0
        for index in 0..<8 {
            let someone = try await fixture.sessions.users.findOrCreate(
                email: try #require(EmailAddress("user\(index)@example.com"))
            ).user
            let (_, theirs) = try await fixture.signIn(someone)
            let factor = try await fixture.factors.enroll(
                friendlyName: "", issuer: "Gatehouse", for: someone, bearer: theirs
            ).factor
            for _ in 0..<4 {
                let challenge = try await fixture.factors.challenge(factor.id, bearer: theirs)
                do {
                    _ = try await fixture.factors.verify(
                        factor.id, challengeID: challenge.id, code: "000000", user: someone, bearer: theirs,
                        sourceIP: source)
                } catch is SignInError {
                    sourceRefused += 1
                } catch {}
            }
        }
        #expect(sourceRefused == 32 - Factors.guessesPerSource.limit)
    }

    @Test func aChallengeIsBoundToItsUserAndSessionAndExpires() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let (factor, secret) = try await fixture.enroll(bearer)
        let challenge = try await fixture.factors.challenge(factor.id, bearer: bearer)
        #expect(challenge.expiresAt == SessionFixtures.start + Factors.challengeLifetime)

        // Another user's session finds neither the factor nor the challenge.
        let mallory = try await fixture.sessions.users.findOrCreate(
            email: try #require(EmailAddress("mallory@example.com"))
        ).user
        let (_, strangers) = try await fixture.signIn(mallory)
        await #expect(throws: FactorError.factorNotFound) {
            try await fixture.factors.challenge(factor.id, bearer: strangers)
        }
        await #expect(throws: FactorError.factorNotFound) {
            try await fixture.factors.verify(
                factor.id, challengeID: challenge.id, code: fixture.code(secret), user: mallory, bearer: strangers,
                sourceIP: nil)
        }
        // Another session of the same user cannot verify this session's challenge.
        let (_, sibling) = try await fixture.signIn()
        await #expect(throws: FactorError.challengeNotFound) {
            try await fixture.factors.verify(
                factor.id, challengeID: challenge.id, code: fixture.code(secret), user: fixture.user,
                bearer: sibling, sourceIP: nil)
        }
        // Expired after 5 minutes.
        fixture.clock.set(SessionFixtures.start + Factors.challengeLifetime)
        await #expect(throws: FactorError.challengeExpired) {
            try await fixture.factors.verify(
                factor.id, challengeID: challenge.id, code: fixture.code(secret), user: fixture.user,
                bearer: bearer, sourceIP: nil)
        }
        #expect(try await fixture.factors.factor(factor.id, userID: fixture.user.id).verified == false)
    }

    @Test func anUnverifiedFactorExpiresAfterADay() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let (factor, _) = try await fixture.enroll(bearer)
        #expect(try await fixture.factors.list(userID: fixture.user.id).map(\.id) == [factor.id])
        fixture.clock.set(SessionFixtures.start + Factors.unverifiedLifetime + 1)
        #expect(try await fixture.factors.list(userID: fixture.user.id).isEmpty)
        await #expect(throws: FactorError.factorNotFound) {
            try await fixture.factors.challenge(
                factor.id, bearer: try await fixture.bearer(fixture.signIn().session.accessToken))
        }
    }

    @Test func aVerifiedFactorNeedsAnAAL2SessionToUnenrolOrToAddAnother() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let (factor, secret) = try await fixture.enroll(bearer)
        let raised = try await fixture.verify(factor, code: fixture.code(secret), bearer: bearer)
        let (_, plain) = try await fixture.signIn()
        await #expect(throws: FactorError.insufficientAAL(enrolling: false)) {
            try await fixture.factors.unenroll(factor.id, bearer: plain)
        }
        await #expect(throws: FactorError.insufficientAAL(enrolling: true)) {
            try await fixture.enroll(plain, name: "second")
        }
        #expect(try await fixture.factors.list(userID: fixture.user.id).count == 1)

        let aal2 = try await fixture.bearer(raised.accessToken)
        #expect(aal2.sessionAAL == "aal2")
        _ = try await fixture.enroll(aal2, name: "second")
        try await fixture.factors.unenroll(factor.id, bearer: aal2)
        #expect(try await fixture.factors.list(userID: fixture.user.id).map(\.friendlyName) == ["second"])
        // The session it raised is back to aal1, its refreshed tokens too.
        #expect(try await fixture.bearer(raised.accessToken).sessionAAL == "aal1")
        let refreshed = try await fixture.sessions.refresh(token: raised.refreshToken)
        let claims = try fixture.claims(refreshed.accessToken)
        #expect(claims["aal"] == "aal1" && claims["amr"]?.arrayValue?.count == 1)
    }

    @Test func aFriendlyNameIsOnePerUserAndBadInputChangesNothing() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let (factor, _) = try await fixture.enroll(bearer)
        await #expect(throws: FactorError.nameConflict("phone app")) { try await fixture.enroll(bearer) }
        for code in ["", "12345", "1234567", "12345a"] {
            await #expect(throws: FactorError.verificationFailed) {
                try await fixture.verify(factor, code: code, bearer: bearer)
            }
        }
        // Malformed codes were not counted as guesses.
        let counters = try await fixture.store.scan(RateLimiter.table, limit: nil)
        #expect(counters.isEmpty)
        #expect(try await fixture.factors.factor(factor.id, userID: fixture.user.id).lastStep == 0)
    }
}
