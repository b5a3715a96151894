import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import PasskeyKit
import StoreCore
import Testing
import WebAuthn
import WebAuthnTesting

/// WebAuthn factors over the store (`WebAuthnFactors`, `Factors+Credential`): a credential
/// registered on an unverified factor, assertions by it, and each refusal.
struct WebAuthnFactorsTests {
    @Test func aCreateChallengeRegistersTheCredentialAndRaisesTheSession() async throws {
        let fixture = try await WebAuthnFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        #expect(factor.type == "webauthn" && !factor.verified && factor.credential == nil)
        let begun = try await fixture.challenge(factor, bearer: bearer)
        #expect(begun.ceremony == "create" && begun.challenge.sessionID == bearer.sessionID)
        #expect(begun.options["rp"]?["id"] == "localhost")
        #expect(begun.options["challenge"] == .string(try #require(begun.challenge.nonce)))
        #expect(begun.options["authenticatorSelection"]?["userVerification"] == "required")
        // The factor's own handle, never the user's (a passkey of the user stays on the device).
        #expect(begun.options["user"]?["id"] == .string(Base64URL.encode(Array(factor.id.utf8))))
        let authenticator = WebAuthnFactorsFixture.authenticator()
        let session = try await fixture.verify(
            factor, begun, credential: try authenticator.registrationJSON(options: begun.options), bearer: bearer,
            ceremony: "create")
        #expect(try fixture.base.claims(session.accessToken)["aal"] == "aal2")
        #expect(try fixture.methods(session.accessToken).first == "mfa/webauthn")
        let stored = try await fixture.base.factors.factor(factor.id, userID: fixture.base.user.id)
        #expect(stored.verified && stored.credential?.id == Base64URL.encode(authenticator.credentialID))
        #expect(try await fixture.base.bearer(session.accessToken).sessionAAL == "aal2")
    }

    @Test func aVerifiedFactorAsksForItsOwnCredentialAndAnAssertionRaisesAnotherSession() async throws {
        let fixture = try await WebAuthnFactorsFixture()
        var authenticator = WebAuthnFactorsFixture.authenticator()
        let (_, first) = try await fixture.base.signIn()
        let (factor, _) = try await fixture.register(authenticator, bearer: first)
        let (plain, later) = try await fixture.base.signIn()
        #expect(try fixture.base.claims(plain.accessToken)["aal"] == "aal1")
        let begun = try await fixture.challenge(factor, bearer: later)
        #expect(begun.ceremony == "request" && begun.options["userVerification"] == "required")
        let allowed = begun.options["allowCredentials"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(allowed == [Base64URL.encode(authenticator.credentialID)])
        authenticator.signCount = 7
        let session = try await fixture.assert(factor, begun, by: authenticator, bearer: later)
        #expect(try fixture.base.claims(session.accessToken)["aal"] == "aal2")
        #expect(try fixture.methods(session.accessToken).contains("mfa/webauthn"))
        let stored = try await fixture.base.factors.factor(factor.id, userID: fixture.base.user.id)
        #expect(stored.credential?.signCount == 7)
        // A counter that does not grow after a non-zero one is refused.
        let again = try await fixture.challenge(factor, bearer: later)
        await #expect(throws: FactorError.credentialRefused(reason: "\(WebAuthnError.counterRegressed)")) {
            try await fixture.assert(factor, again, by: authenticator, bearer: later)
        }
    }

    @Test func aChallengeIsSpentByItsFirstAnswerAndExpiresAfterFiveMinutes() async throws {
        let fixture = try await WebAuthnFactorsFixture()
        let authenticator = WebAuthnFactorsFixture.authenticator()
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        let begun = try await fixture.challenge(factor, bearer: bearer)
        let credential = try authenticator.registrationJSON(options: begun.options)
        _ = try await fixture.verify(factor, begun, credential: credential, bearer: bearer)
        await #expect(throws: FactorError.challengeNotFound) {
            try await fixture.verify(factor, begun, credential: credential, bearer: bearer)
        }
        let (_, later) = try await fixture.base.signIn()
        let request = try await fixture.challenge(factor, bearer: later)
        let assertion = try WebAuthnFactorsFixture.assertion(authenticator, for: factor, request)
        _ = try await fixture.verify(factor, request, credential: assertion, bearer: later)
        // The same assertion again: its challenge is gone.
        await #expect(throws: FactorError.challengeNotFound) {
            try await fixture.verify(factor, request, credential: assertion, bearer: later)
        }
        let late = try await fixture.challenge(factor, bearer: later)
        fixture.base.clock.set(SessionFixtures.start + Factors.challengeLifetime + 1)
        await #expect(throws: FactorError.challengeExpired) {
            try await fixture.assert(factor, late, by: authenticator, bearer: later)
        }
    }

    @Test func aWrongAnswerSpendsTheChallengeToo() async throws {
        let fixture = try await WebAuthnFactorsFixture()
        var authenticator = WebAuthnFactorsFixture.authenticator()
        let (_, bearer) = try await fixture.base.signIn()
        let (factor, _) = try await fixture.register(authenticator, bearer: bearer)
        let begun = try await fixture.challenge(factor, bearer: bearer)
        authenticator.origin = "https://elsewhere.example"
        await #expect(throws: FactorError.credentialRefused(reason: "\(WebAuthnError.wrongOrigin)")) {
            try await fixture.assert(factor, begun, by: authenticator, bearer: bearer)
        }
        authenticator.origin = "http://127.0.0.1:3000"
        await #expect(throws: FactorError.challengeNotFound) {
            try await fixture.assert(factor, begun, by: authenticator, bearer: bearer)
        }
    }

    @Test func withoutUserVerificationNeitherARegistrationNorAnAssertionPasses() async throws {
        let fixture = try await WebAuthnFactorsFixture()
        var authenticator = WebAuthnFactorsFixture.authenticator()
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        authenticator.verifiesUser = false
        let begun = try await fixture.challenge(factor, bearer: bearer)
        await #expect(throws: FactorError.credentialRefused(reason: "\(WebAuthnError.userNotVerified)")) {
            try await fixture.verify(
                factor, begun, credential: try authenticator.registrationJSON(options: begun.options), bearer: bearer)
        }
        #expect(try await fixture.base.factors.factor(factor.id, userID: fixture.base.user.id).verified == false)
        authenticator.verifiesUser = true
        let create = try await fixture.challenge(factor, bearer: bearer)
        _ = try await fixture.verify(
            factor, create, credential: try authenticator.registrationJSON(options: create.options), bearer: bearer)
        let (plain, later) = try await fixture.base.signIn()
        authenticator.verifiesUser = false
        let request = try await fixture.challenge(factor, bearer: later)
        await #expect(throws: FactorError.credentialRefused(reason: "\(WebAuthnError.userNotVerified)")) {
            try await fixture.assert(factor, request, by: authenticator, bearer: later)
        }
        #expect(try await fixture.base.bearer(plain.accessToken).sessionAAL == "aal1")
    }

    @Test func anotherSessionsChallengeAndAnotherCeremonyAreRefused() async throws {
        let fixture = try await WebAuthnFactorsFixture()
        let authenticator = WebAuthnFactorsFixture.authenticator()
        let (_, bearer) = try await fixture.base.signIn()
        let factor = try await fixture.enroll(bearer)
        let begun = try await fixture.challenge(factor, bearer: bearer)
        let credential = try authenticator.registrationJSON(options: begun.options)
        let (_, other) = try await fixture.base.signIn()
        await #expect(throws: FactorError.challengeNotFound) {
            try await fixture.verify(factor, begun, credential: credential, bearer: other)
        }
        await #expect(throws: FactorError.credentialRefused(reason: "the ceremony is not the challenge's")) {
            try await fixture.verify(factor, begun, credential: credential, bearer: bearer, ceremony: "request")
        }
        // Another user's session finds no factor at all.
        let stranger = try await fixture.base.sessions.users.findOrCreate(
            email: try #require(EmailAddress("eve@example.com"))
        ).user
        let (_, theirs) = try await fixture.base.signIn(stranger)
        await #expect(throws: FactorError.factorNotFound) {
            try await fixture.webAuthn.challenge(factor.id, of: stranger, bearer: theirs, app: fixture.app)
        }
    }

    @Test func wrongAnswersAreLimitedPerFactorAsCodesAre() async throws {
        let fixture = try await WebAuthnFactorsFixture()
        let authenticator = WebAuthnFactorsFixture.authenticator()
        let (_, bearer) = try await fixture.base.signIn()
        let (factor, _) = try await fixture.register(authenticator, bearer: bearer)
        var stranger = WebAuthnFactorsFixture.authenticator()
        stranger.credentialID = authenticator.credentialID
        for _ in 0..<Factors.guessesPerFactor.limit {
            let begun = try await fixture.challenge(factor, bearer: bearer)
            await #expect(throws: FactorError.credentialRefused(reason: "\(WebAuthnError.badSignature)")) {
                try await fixture.assert(factor, begun, by: stranger, bearer: bearer)
            }
        }
        // The limit is reached: even the owner's assertion is not checked until the window ends.
        let begun = try await fixture.challenge(factor, bearer: bearer)
        await #expect(throws: SignInError.self) {
            try await fixture.assert(factor, begun, by: authenticator, bearer: bearer)
        }
        fixture.base.clock.set(SessionFixtures.start + Factors.guessesPerFactor.window)
        let later = try await fixture.challenge(factor, bearer: bearer)
        _ = try await fixture.assert(factor, later, by: authenticator, bearer: bearer)
    }

    @Test func unenrollingNeedsAAL2AndLowersTheSessionsItRaised() async throws {
        let fixture = try await WebAuthnFactorsFixture()
        let (_, bearer) = try await fixture.base.signIn()
        let (factor, raised) = try await fixture.register(WebAuthnFactorsFixture.authenticator(), bearer: bearer)
        let (_, plain) = try await fixture.base.signIn()
        await #expect(throws: FactorError.insufficientAAL(enrolling: false)) {
            try await fixture.base.factors.unenroll(factor.id, bearer: plain)
        }
        // Another WebAuthn factor needs aal2 too.
        await #expect(throws: FactorError.insufficientAAL(enrolling: true)) {
            try await fixture.enroll(plain, name: "second")
        }
        let aal2 = try await fixture.base.bearer(raised.accessToken)
        try await fixture.base.factors.unenroll(factor.id, bearer: aal2)
        #expect(try await fixture.base.factors.list(userID: fixture.base.user.id).isEmpty)
        #expect(try await fixture.base.bearer(raised.accessToken).sessionAAL == "aal1")
    }

    @Test func aFactorsCredentialNeverSignsInAsAPasskey() async throws {
        let fixture = try await WebAuthnFactorsFixture()
        let authenticator = WebAuthnFactorsFixture.authenticator()
        let (_, bearer) = try await fixture.base.signIn()
        let (factor, _) = try await fixture.register(authenticator, bearer: bearer)
        let ceremonies = PasskeyCeremonies(
            store: fixture.base.store, clock: fixture.base.clock, sessions: fixture.base.sessions,
            settings: WebAuthnFactorsFixture.settings)
        for handle in [Array(factor.id.utf8), Array(fixture.base.user.id.utf8)] {
            let begun = try await ceremonies.beginSignIn(app: fixture.app, sourceIP: nil)
            await #expect(throws: PasskeyError.verificationFailed(reason: "unknown credential")) {
                try await ceremonies.finishSignIn(
                    challengeID: begun.challenge.id,
                    credential: try authenticator.assertionJSON(options: begun.options, userHandle: handle),
                    app: fixture.app, sourceIP: nil)
            }
        }
    }

    @Test func theyAreOffUnlessTheSettingSaysEnabled() throws {
        #expect(try WebAuthnFactors.isEnabled(in: [:]) == false)
        #expect(try WebAuthnFactors.isEnabled(in: ["MFA_WEBAUTHN_FACTORS": "disabled"]) == false)
        #expect(try WebAuthnFactors.isEnabled(in: ["MFA_WEBAUTHN_FACTORS": "enabled"]))
        #expect(throws: SettingsError.self) { try WebAuthnFactors.isEnabled(in: ["MFA_WEBAUTHN_FACTORS": "yes"]) }
    }
}
