import AuthKit
import GatehouseJSON
import Store
import StoreCore
import Testing

/// The hosted sign-in's second step (`SecondFactorSignIn`): begun only for a user with a
/// verified TOTP factor, bound to its browser, finished once by a right code into an auth code
/// whose session starts at `aal2`, and limited as a session's verify is.
struct SecondFactorSignInTests {
    static let browser = "http://127.0.0.1:3000/app/auth/callback"

    /// The fixture's user with a verified factor (verified at `start + 10`), and the second step.
    static func verified() async throws -> (FactorsFixture, SecondFactorSignIn, Factor, [UInt8]) {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let (factor, secret) = try await fixture.enroll(bearer)
        fixture.clock.set(SessionFixtures.start + 10)
        _ = try await fixture.verify(factor, code: fixture.code(secret), bearer: bearer)
        let second = SecondFactorSignIn(
            store: fixture.store, clock: fixture.clock, secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)),
            issuer: "http://127.0.0.1:3000")
        fixture.clock.set(SessionFixtures.start + 60)  // the next steps' codes
        return (fixture, second, factor, secret)
    }

    static func begin(
        _ fixture: FactorsFixture, _ second: SecondFactorSignIn
    ) async throws -> (
        SecondFactorSignIn.Step, cookie: String
    ) {
        let step = try #require(
            try await second.begin(
                user: fixture.user, app: "demo", callback: browser, provider: "email", isNewUser: false,
                codeChallenge: nil))
        let set = try #require(step.cookie)
        #expect(set.hasPrefix("gh_mfa=") && set.contains("HttpOnly") && set.contains("SameSite=Strict"))
        return (step, String(set.dropFirst("gh_mfa=".count).prefix { $0 != ";" }))
    }

    static func wrong(_ code: String) -> String { code == "000000" ? "111111" : "000000" }

    @Test func theRightCodeMintsACodeWhoseSessionStartsAtAAL2Once() async throws {
        let (fixture, second, factor, secret) = try await Self.verified()
        let (step, cookie) = try await Self.begin(fixture, second)
        #expect(step.factors.map(\.id) == [factor.id] && step.factors.map(\.name) == ["phone app"])
        #expect(step.triesLeft == 3)
        let code = fixture.code(secret)
        let outcome = try await second.finish(
            handle: step.handle, code: code, factorID: nil, cookie: cookie, sourceIP: "203.0.113.9")
        guard case .signedIn(let redirect, let cleared) = outcome else {
            Issue.record("not signed in: \(outcome)")
            return
        }
        #expect(cleared.hasPrefix("gh_mfa=;") && cleared.contains("Max-Age=0"))
        #expect(redirect.hasPrefix(Self.browser + "?code="))
        let session = try await fixture.sessions.exchange(
            code: String(redirect.dropFirst((Self.browser + "?code=").count)), app: "demo")
        let claims = try fixture.claims(session.accessToken)
        #expect(claims["aal"] == "aal2")
        #expect(claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue } == ["totp", "otp"])
        // Refreshed, still aal2; the session names its factor, so unenrolling it lowers it.
        #expect(
            try fixture.claims(try await fixture.sessions.refresh(token: session.refreshToken).accessToken)["aal"]
                == "aal2")
        let rows = try await fixture.store.scan(RefreshTokens.sessionsTable, limit: nil)
        #expect(rows.contains { $0["aal"] == "aal2" && $0["factorId"] == .string(factor.id) && $0["amr"] != nil })
        // The step is spent, and the code's step kept: the same code works nowhere again.
        #expect(
            try await second.finish(handle: step.handle, code: code, factorID: nil, cookie: cookie, sourceIP: nil)
                == .ended)
        #expect(
            try await fixture.factors.factor(factor.id, userID: fixture.user.id).lastStep
                == TOTP.step(at: fixture.clock.now))
    }

    /// The factor removed between the step and the exchange: the code starts no session (it
    /// would be at aal2 on a factor the user no longer has).
    @Test func aCodeWhoseFactorWasRemovedSinceStartsNoSession() async throws {
        let (fixture, second, factor, secret) = try await Self.verified()
        let (step, cookie) = try await Self.begin(fixture, second)
        let outcome = try await second.finish(
            handle: step.handle, code: fixture.code(secret), factorID: nil, cookie: cookie, sourceIP: "203.0.113.9")
        guard case .signedIn(let redirect, _) = outcome else {
            Issue.record("not signed in: \(outcome)")
            return
        }
        // Removed from another session that verified it (unenrolling needs aal2).
        let (_, plain) = try await fixture.signIn()
        fixture.clock.set(SessionFixtures.start + 90)
        let raised = try await fixture.verify(factor, code: fixture.code(secret), bearer: plain)
        try await fixture.factors.unenroll(factor.id, bearer: try await fixture.bearer(raised.accessToken))
        await #expect(throws: SessionError.invalidCode) {
            try await fixture.sessions.exchange(
                code: String(redirect.dropFirst((Self.browser + "?code=").count)), app: "demo")
        }
    }

    @Test func aReplayedCodeIsWrongInANewStep() async throws {
        let (fixture, second, _, secret) = try await Self.verified()
        let (first, cookie) = try await Self.begin(fixture, second)
        let code = fixture.code(secret)
        guard
            case .signedIn = try await second.finish(
                handle: first.handle, code: code, factorID: nil, cookie: cookie, sourceIP: nil)
        else { return #expect(Bool(false)) }
        let (again, cookie2) = try await Self.begin(fixture, second)
        guard
            case .wrongCode(let page) = try await second.finish(
                handle: again.handle, code: code, factorID: nil, cookie: cookie2, sourceIP: nil)
        else { return #expect(Bool(false)) }
        #expect(page.triesLeft == 2 && page.cookie == nil && page.handle == again.handle)
    }

    @Test func threeWrongCodesEndTheStepAndCountAgainstTheFactorsLimits() async throws {
        let (fixture, second, factor, secret) = try await Self.verified()
        let (step, cookie) = try await Self.begin(fixture, second)
        let wrong = Self.wrong(fixture.code(secret))
        for left in [2, 1] {
            let outcome = try await second.finish(
                handle: step.handle, code: wrong, factorID: factor.id, cookie: cookie, sourceIP: "203.0.113.9")
            guard case .wrongCode(let page) = outcome else { return #expect(Bool(false)) }
            #expect(page.triesLeft == left && page.handle == step.handle && page.callback == Self.browser)
        }
        #expect(
            try await second.finish(handle: step.handle, code: wrong, factorID: nil, cookie: cookie, sourceIP: nil)
                == .ended)
        // Ended: even the right code does nothing now.
        #expect(
            try await second.finish(
                handle: step.handle, code: fixture.code(secret), factorID: nil, cookie: cookie, sourceIP: nil) == .ended
        )
        // A new step's tries count against the same factor's limit as a session's verify
        // (`Factors.guessesPerFactor`, 5 per 5 minutes): 3 spent, 2 more, then refused uncompared.
        let (next, cookie2) = try await Self.begin(fixture, second)
        for _ in 0..<2 {
            _ = try await second.finish(handle: next.handle, code: wrong, factorID: nil, cookie: cookie2, sourceIP: nil)
        }
        let (last, cookie3) = try await Self.begin(fixture, second)
        await #expect(throws: SignInError.self) {
            try await second.finish(
                handle: last.handle, code: fixture.code(secret), factorID: nil, cookie: cookie3, sourceIP: nil)
        }
    }

    @Test func aStepWorksOnlyWithItsCookieAndForFiveMinutes() async throws {
        let (fixture, second, _, secret) = try await Self.verified()
        let (step, cookie) = try await Self.begin(fixture, second)
        let code = fixture.code(secret)
        for (handle, browser) in [(step.handle, nil), (step.handle, "another"), ("x." + fixture.user.id, cookie)] {
            #expect(
                try await second.finish(handle: handle, code: code, factorID: nil, cookie: browser, sourceIP: nil)
                    == .ended)
        }
        // None of those counted a try; a malformed code does not either.
        guard
            case .wrongCode(let page) = try await second.finish(
                handle: step.handle, code: "12345", factorID: nil, cookie: cookie, sourceIP: nil)
        else { return #expect(Bool(false)) }
        #expect(page.triesLeft == 3)
        fixture.clock.set(fixture.clock.now + SecondFactorSignIn.lifetime)
        #expect(
            try await second.finish(
                handle: step.handle, code: fixture.code(secret), factorID: nil, cookie: cookie, sourceIP: nil) == .ended
        )
    }

    @Test func aUserWithoutAVerifiedFactorHasNoSecondStep() async throws {
        let fixture = try await FactorsFixture()
        let second = SecondFactorSignIn(
            store: fixture.store, clock: fixture.clock, secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)),
            issuer: "http://127.0.0.1:3000")
        let begin = {
            try await second.begin(
                user: fixture.user, app: "demo", callback: Self.browser, provider: "email", isNewUser: false,
                codeChallenge: nil)
        }
        #expect(try await begin() == nil)
        let (_, bearer) = try await fixture.signIn()
        _ = try await fixture.enroll(bearer)  // unverified: not a second factor yet
        #expect(try await begin() == nil)
    }
}
