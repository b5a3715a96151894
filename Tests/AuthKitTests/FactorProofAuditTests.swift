import AuthKit
import GatehouseJSON
import PasskeyKit
import Testing
import WebAuthn
import WebAuthnTesting

/// A second factor's proof refused after it was counted (a verified factor's wrong TOTP or
/// texted code, a wrong recovery code, a verified WebAuthn factor's assertion that does not
/// check out) is a refused sign-in of the user in the audit log, for the bearer's app; a wrong
/// code or a refused registration while a factor is enrolled is not (an enrolment that did not
/// finish), nor is a right proof.
struct FactorProofAuditTests {
    /// The refused sign-ins the audit log holds for `fixture`'s user.
    func refusals(_ fixture: FactorsFixture) async throws -> [AuditEvent] {
        try await fixture.sessions.audit.events(AuditQuery(userID: fixture.user.id, action: .signIn)).events
            .filter { $0.outcome == .failure(.wrongCode) }
    }

    /// A code of six digits that is not `code`.
    static func other(than code: String) -> String { code == "000000" ? "111111" : "000000" }

    @Test func aWrongTOTPCodeIsRecorded() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let (factor, secret) = try await fixture.enroll(bearer)
        await #expect(throws: FactorError.verificationFailed) {
            try await fixture.verify(factor, code: Self.other(than: fixture.code(secret)), bearer: bearer)
        }
        #expect(try await refusals(fixture).isEmpty)
        _ = try await fixture.verify(factor, code: fixture.code(secret), bearer: bearer)
        fixture.clock.set(SessionFixtures.start + 60)
        let (_, later) = try await fixture.signIn()
        await #expect(throws: FactorError.verificationFailed) {
            try await fixture.verify(factor, code: Self.other(than: fixture.code(secret)), bearer: later)
        }
        let events = try await refusals(fixture)
        #expect(events.count == 1 && events.first?.app == "demo" && events.first?.actor == .system)
        _ = try await fixture.verify(factor, code: fixture.code(secret), bearer: later)
        #expect(try await refusals(fixture).count == 1)
    }

    @Test func aWrongTextedCodeIsRecorded() async throws {
        let fixture = try await PhoneFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        let enrolling = try await fixture.challenge(factor, bearer: bearer)
        let first = try #require(try await fixture.texts().last)
        await #expect(throws: FactorError.phoneCodeRefused) {
            try await fixture.verify(factor, challenge: enrolling, code: Self.other(than: first), bearer: bearer)
        }
        #expect(try await refusals(fixture.base).isEmpty)
        _ = try await fixture.verify(factor, challenge: enrolling, code: first, bearer: bearer)
        let verified = try await fixture.base.factors.factor(factor.id, userID: fixture.base.user.id)
        // The next text a minute later, so that it is the outbox's last: texts sent at one
        // instant have no order there.
        fixture.base.clock.set(SessionFixtures.start + 60)
        let (_, later) = try await fixture.base.signIn()
        let challenge = try await fixture.challenge(verified, bearer: later)
        let code = try #require(try await fixture.texts().last)
        await #expect(throws: FactorError.phoneCodeRefused) {
            try await fixture.verify(verified, challenge: challenge, code: Self.other(than: code), bearer: later)
        }
        #expect(try await refusals(fixture.base).count == 1)
        _ = try await fixture.verify(verified, challenge: challenge, code: code, bearer: later)
        #expect(try await refusals(fixture.base).count == 1)
    }

    @Test func aWrongRecoveryCodeIsRecorded() async throws {
        let fixture = try await FactorsFixture()
        let (_, bearer) = try await fixture.signIn()
        let enrollment = try await fixture.factors.enroll(
            friendlyName: "phone app", issuer: "Gatehouse", for: fixture.user, bearer: bearer)
        let secret = try #require(Base32.decode(enrollment.secret))
        _ = try await fixture.verify(enrollment.factor, code: fixture.code(secret), bearer: bearer)
        let (_, later) = try await fixture.signIn()
        // A code of the right shape that is none of the set's.
        let codes = Set(enrollment.recoveryCodes.compactMap(RecoveryCodes.normalized))
        let wrong = try #require(["0000000000", "1111111111"].first { !codes.contains($0) })
        await #expect(throws: FactorError.recoveryCodeInvalid) {
            try await fixture.factors.useRecoveryCode(wrong, user: fixture.user, bearer: later, sourceIP: nil)
        }
        #expect(try await refusals(fixture).count == 1)
        _ = try await fixture.factors.useRecoveryCode(
            try #require(enrollment.recoveryCodes.first), user: fixture.user, bearer: later, sourceIP: nil)
        #expect(try await refusals(fixture).count == 1)
    }

    @Test func aVerifiedWebAuthnFactorsRefusedAssertionIsRecordedAndARefusedRegistrationIsNot() async throws {
        let fixture = try await WebAuthnFactorsFixture()
        var authenticator = WebAuthnFactorsFixture.authenticator()
        let (_, bearer) = try await fixture.base.signIn()
        let unregistered = try await fixture.enroll(bearer, name: "first try")
        let begun = try await fixture.challenge(unregistered, bearer: bearer)
        authenticator.origin = "https://elsewhere.example"
        await #expect(throws: FactorError.credentialRefused(reason: "\(WebAuthnError.wrongOrigin)")) {
            try await fixture.verify(
                unregistered, begun, credential: try authenticator.registrationJSON(options: begun.options),
                bearer: bearer)
        }
        #expect(try await refusals(fixture.base).isEmpty)

        authenticator.origin = "http://127.0.0.1:3000"
        let (factor, _) = try await fixture.register(authenticator, bearer: bearer)
        let (_, later) = try await fixture.base.signIn()
        let asked = try await fixture.challenge(factor, bearer: later)
        authenticator.origin = "https://elsewhere.example"
        await #expect(throws: FactorError.credentialRefused(reason: "\(WebAuthnError.wrongOrigin)")) {
            try await fixture.assert(factor, asked, by: authenticator, bearer: later)
        }
        #expect(try await refusals(fixture.base).count == 1)
    }
}
