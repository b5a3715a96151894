import AuthKit
import Crypto
import Foundation
import GatehouseJSON
import JOSE
import PasskeyKit
import Store
import StoreCore
import Testing
import WebAuthn
import WebAuthnTesting

/// Passkeys' ceremonies over the store: a registration and a sign-in end to end, and each way a
/// credential, a challenge or a passkey is refused.
struct PasskeyCeremoniesTests {
    @Test func aRegisteredPasskeySignsInAtAAL2() async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        let passkey = try await fixture.register(authenticator)
        #expect(passkey.credentialID == Base64URL.encode(authenticator.credentialID))
        #expect(passkey.backupEligible && passkey.backedUp && passkey.friendlyName == "Passkey")
        let (user, session) = try await fixture.signIn(with: authenticator)
        #expect(user.id == fixture.user.id)
        let claims = try fixture.claims(session.accessToken)
        #expect(claims["aal"] == "aal2" && claims["sub"] == .string(fixture.user.id))
        let methods = claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue }
        #expect(methods == ["webauthn", "passkey"])
        let stored = try await fixture.ceremonies.passkeys.list(userID: fixture.user.id)
        #expect(stored.count == 1 && stored[0].lastUsedAt == (SessionFixtures.start * 1000).rounded(.down))
    }

    @Test func theOptionsAskForADiscoverableVerifiedCredentialAndExcludeTheUsersOwn() async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        try await fixture.register(authenticator)
        let bearer = try await fixture.signIn()
        let begun = try await fixture.ceremonies.beginRegistration(
            for: fixture.user, bearer: bearer, app: fixture.app, sourceIP: nil)
        #expect(begun.options["rp"]?["id"] == "localhost")
        #expect(begun.options["authenticatorSelection"]?["userVerification"] == "required")
        #expect(begun.options["user"]?["id"] == .string(Base64URL.encode(Array(fixture.user.id.utf8))))
        let excluded = begun.options["excludeCredentials"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(excluded == [Base64URL.encode(authenticator.credentialID)])
        #expect(begun.challenge.expiresAt == SessionFixtures.start + 300)
        let signIn = try await fixture.ceremonies.beginSignIn(app: fixture.app, sourceIP: nil)
        #expect(signIn.options["rpId"] == "localhost" && signIn.options["userVerification"] == "required")
    }

    @Test func aChallengeIsAnsweredOnceWithinFiveMinutesFromTheSessionThatAsked() async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        let bearer = try await fixture.signIn()
        let begun = try await fixture.ceremonies.beginRegistration(
            for: fixture.user, bearer: bearer, app: fixture.app, sourceIP: nil)
        let credential = try authenticator.registrationJSON(options: begun.options)
        // Another session of the same user cannot answer it.
        let other = try await fixture.signIn()
        await #expect(throws: PasskeyError.challengeNotFound) {
            try await fixture.ceremonies.finishRegistration(
                challengeID: begun.challenge.id, credential: credential, user: fixture.user, bearer: other,
                app: fixture.app)
        }
        _ = try await fixture.ceremonies.finishRegistration(
            challengeID: begun.challenge.id, credential: credential, user: fixture.user, bearer: bearer,
            app: fixture.app)
        // Replayed: spent.
        await #expect(throws: PasskeyError.challengeNotFound) {
            try await fixture.ceremonies.finishRegistration(
                challengeID: begun.challenge.id, credential: credential, user: fixture.user, bearer: bearer,
                app: fixture.app)
        }
        // A sign-in's, answered late.
        let signIn = try await fixture.ceremonies.beginSignIn(app: fixture.app, sourceIP: nil)
        fixture.clock.set(SessionFixtures.start + 301)
        await #expect(throws: PasskeyError.challengeExpired) {
            try await fixture.ceremonies.finishSignIn(
                challengeID: signIn.challenge.id,
                credential: try authenticator.assertionJSON(
                    options: signIn.options, userHandle: Array(fixture.user.id.utf8)),
                app: fixture.app, sourceIP: nil)
        }
    }

    /// Each check of the assertion, failed once: the sign-in is refused and starts no session.
    @Test(arguments: [
        "no user verification", "another origin", "another RP ID", "tampered signature", "unknown credential",
        "another user's handle",
    ])
    func anAssertionThatFailsACheckSignsNobodyIn(_ failure: String) async throws {
        let fixture = try await PasskeysFixture()
        var authenticator = PasskeysFixture.authenticator()
        try await fixture.register(authenticator)
        var handle = Array(fixture.user.id.utf8)
        switch failure {
        case "no user verification": authenticator.flags.remove(.userVerified)
        case "another origin": authenticator.origin = "https://evil.example"
        case "another RP ID": authenticator.rpID = "evil.example"
        case "unknown credential": authenticator.credentialID = Array(repeating: 9, count: 32)
        case "another user's handle": handle = Array("someone-else".utf8)
        default: break
        }
        let begun = try await fixture.ceremonies.beginSignIn(app: fixture.app, sourceIP: nil)
        var credential = try authenticator.assertionJSON(options: begun.options, userHandle: handle)
        if failure == "tampered signature", case .object(var object) = credential,
            case .object(var response)? = object["response"],
            var signature = response["signature"]?.stringValue.flatMap(Base64URL.decode)
        {
            signature[signature.count - 1] ^= 1
            response["signature"] = .string(Base64URL.encode(signature))
            object["response"] = .object(response)
            credential = .object(object)
        }
        await #expect {
            try await fixture.ceremonies.finishSignIn(
                challengeID: begun.challenge.id, credential: credential, app: fixture.app, sourceIP: nil)
        } throws: { error in
            guard case PasskeyError.verificationFailed = error else { return false }
            return true
        }
        let sessions = try await fixture.store.query(
            "Sessions", partition: .string(fixture.user.id), sortKey: nil, limit: nil, ascending: true)
        #expect(sessions.count == 1)  // the registration's sign-in only
    }

    @Test func aCounterThatGoesBackFlagsThePasskeyForGood() async throws {
        let fixture = try await PasskeysFixture()
        var authenticator = PasskeysFixture.authenticator()
        authenticator.signCount = 5
        try await fixture.register(authenticator)
        authenticator.signCount = 6
        _ = try await fixture.signIn(with: authenticator)
        // A clone still at 6: refused, and what the passkey signed in ends.
        await #expect(throws: PasskeyError.verificationFailed(reason: "\(WebAuthnError.counterRegressed)")) {
            try await fixture.signIn(with: authenticator)
        }
        let sessions = try await fixture.store.query(
            "Sessions", partition: .string(fixture.user.id), sortKey: nil, limit: nil, ascending: true)
        #expect(!sessions.contains { $0["startedBy"] != nil })
        #expect(try await fixture.ceremonies.passkeys.list(userID: fixture.user.id).first?.flagged == true)
        authenticator.signCount = 7
        await #expect(throws: PasskeyError.verificationFailed(reason: "the passkey is flagged")) {
            try await fixture.signIn(with: authenticator)
        }
    }

    @Test func theOriginsAreTheAppsTheAPIsAndItsNativeApps() throws {
        var app = try App(id: "shop", name: "Shop", baseURL: "https://shop.example", mobileScheme: nil, publicKeys: [])
        let fingerprint = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")
        try app.associate(
            appleAppIDs: [], androidApps: [try AndroidApp(packageName: "com.example.shop", fingerprints: [fingerprint])]
        )
        let party = PasskeySettings(rpID: "auth.example", apiOrigin: "https://auth.example").party(for: app)
        #expect(party.id == "auth.example")
        #expect(
            party.origins == [
                "https://shop.example", "https://auth.example",
                "android:apk-key-hash:\(Base64URL.encode((0..<32).map(UInt8.init)))",
            ])
    }

    @Test func theRPIDIsTheSettingOrTheAPIsOwnHost() throws {
        func rpID(_ issuer: String, _ setting: String? = nil) throws -> String {
            var environment = ["ISSUER": issuer]
            environment["PASSKEY_RP_ID"] = setting
            return try PasskeySettings(environment: environment).rpID
        }
        #expect(try rpID("http://127.0.0.1:3000") == "localhost")
        #expect(try rpID("http://localhost:3000") == "localhost")
        #expect(
            try rpID("https://Abc123.execute-api.us-east-1.amazonaws.com")
                == "abc123.execute-api.us-east-1.amazonaws.com")
        #expect(try rpID("https://auth.example.com/", "example.com") == "example.com")
        #expect(throws: SettingsError.self) { try rpID("https://auth.example.com", "https://example.com") }
    }

    @Test func anAAGUIDReadsAsAUUIDAndRandomIDsKeepTheirForm() {
        let aaguid: [UInt8] = [
            0xFB, 0xFC, 0x30, 0x07, 0x15, 0x4E, 0x4E, 0xCC, 0x8C, 0x0B, 0x6E, 0x02, 0x05, 0x57, 0xD7, 0xBD,
        ]
        #expect(SHA256Hex.uuid(aaguid) == "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")
        #expect(SHA256Hex.uuid([0xAB, 0x01]) == "ab01")
        let random = RandomToken.uuid()
        #expect(random.count == 36 && random.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        #expect(random.split(separator: "-")[2].first == "4")
    }

    @Test func aSyncedPasskeysZeroCounterIsAccepted() async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        try await fixture.register(authenticator)
        _ = try await fixture.signIn(with: authenticator)
        _ = try await fixture.signIn(with: authenticator)
    }

    @Test func aCredentialIsRegisteredOnceAcrossAllUsers() async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        try await fixture.register(authenticator)
        let other = try await fixture.sessions.users.findOrCreate(
            email: try #require(EmailAddress("eve@example.com"))
        ).user
        await #expect(throws: PasskeyError.credentialExists) {
            try await fixture.register(authenticator, for: other)
        }
        #expect(try await fixture.items(under: other.id) == 0)
    }

    @Test func aUserHasTenPasskeysAtMost() async throws {
        let fixture = try await PasskeysFixture()
        for _ in 0..<Passkeys.maximumPerUser {
            try await fixture.register(PasskeysFixture.authenticator())
        }
        let bearer = try await fixture.signIn()
        await #expect(throws: PasskeyError.tooManyPasskeys) {
            try await fixture.ceremonies.beginRegistration(
                for: fixture.user, bearer: bearer, app: fixture.app, sourceIP: nil)
        }
    }

    @Test func removingAPasskeyEndsItsSessionsAndDeletingTheAccountLeavesNoPasskey() async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        let passkey = try await fixture.register(authenticator)
        let (_, session) = try await fixture.signIn(with: authenticator)
        let renamed = try await fixture.ceremonies.passkeys.rename(passkey.id, userID: fixture.user.id, to: "Work Mac")
        #expect(renamed.friendlyName == "Work Mac")
        await #expect(throws: PasskeyError.invalidName) {
            try await fixture.ceremonies.passkeys.rename(passkey.id, userID: fixture.user.id, to: "")
        }
        let other = try await fixture.signIn()
        try await fixture.ceremonies.remove(passkey.id, of: fixture.user, bearer: other)
        // What it signed in ends with it; the session it was removed from goes on.
        await #expect(throws: (any Error).self) {
            try await fixture.sessions.bearer("Bearer \(session.accessToken)", app: "demo")
        }
        let left = try await fixture.store.query(
            "Sessions", partition: .string(fixture.user.id), sortKey: nil, limit: nil, ascending: true)
        #expect(left.contains { $0["sessionId"] == .string(other.sessionID) })
        #expect(!left.contains { $0["startedBy"] == .string(passkey.id) })
        await #expect(throws: PasskeyError.verificationFailed(reason: "unknown credential")) {
            try await fixture.signIn(with: authenticator)
        }
        // Another passkey, then the account goes: nothing of it is left, its owner item neither.
        let second = PasskeysFixture.authenticator()
        try await fixture.register(second)
        try await Accounts(store: fixture.store, clock: fixture.clock).delete(userID: fixture.user.id)
        #expect(try await fixture.items(under: fixture.user.id) == 0)
        let owner = "credential:\(SHA256Hex.of(second.credentialID))"
        #expect(try await fixture.items(under: owner) == 0)
    }

    @Test func onlyARecentSignInOfAPermanentUserRegistersAPasskey() async throws {
        let fixture = try await PasskeysFixture()
        let stale = try await fixture.signIn()
        fixture.clock.set(SessionFixtures.start + 3601)
        await #expect(throws: AccountError.reauthenticationNeeded) {
            try await fixture.ceremonies.beginRegistration(
                for: fixture.user, bearer: stale, app: fixture.app, sourceIP: nil)
        }
        // Begun in time, answered once the session is no longer recent: refused too.
        let fresh = try await fixture.signIn()
        let begun = try await fixture.ceremonies.beginRegistration(
            for: fixture.user, bearer: fresh, app: fixture.app, sourceIP: nil)
        fixture.clock.set(SessionFixtures.start + 3601 + 3601)
        await #expect(throws: AccountError.reauthenticationNeeded) {
            try await fixture.ceremonies.finishRegistration(
                challengeID: begun.challenge.id,
                credential: try PasskeysFixture.authenticator().registrationJSON(options: begun.options),
                user: fixture.user, bearer: fresh, app: fixture.app)
        }
        // An anonymous user registers none: whoever confirms an address later would find it there.
        let anonymous = try await AnonymousSignIn(
            sessions: fixture.sessions, store: fixture.store, clock: fixture.clock
        )
        .signIn(metadata: [:], app: "demo", sourceIP: nil)
        let bearer = try await fixture.sessions.bearer("Bearer \(anonymous.session.accessToken)", app: "demo")
        await #expect(throws: PasskeyError.anonymousUser) {
            try await fixture.ceremonies.beginRegistration(
                for: anonymous.user, bearer: bearer, app: fixture.app, sourceIP: nil)
        }
    }

    @Test func aPasskeyAddedBeforeTheUserTurnedMFAOnSignsInAtAAL1() async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        try await fixture.register(authenticator)
        // The user turns MFA on: the passkey added at aal1 no longer proves the second factor.
        try await fixture.verifyTOTPFactor()
        let (_, session) = try await fixture.signIn(with: authenticator)
        let claims = try fixture.claims(session.accessToken)
        #expect(claims["aal"] == "aal1")
        #expect(claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue } == ["passkey"])
    }

    @Test func signInsAreLimitedPerSourceAndAnIPv6NetworkIsOneSource() async throws {
        let fixture = try await PasskeysFixture()
        for index in 0..<30 {
            _ = try await fixture.ceremonies.beginSignIn(app: fixture.app, sourceIP: "2001:db8:1:2::\(index)")
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 300)) {
            try await fixture.ceremonies.beginSignIn(app: fixture.app, sourceIP: "2001:db8:1:2::ffff")
        }
        _ = try await fixture.ceremonies.beginSignIn(app: fixture.app, sourceIP: "2001:db8:1:3::1")
    }

    @Test func aUserWithASecondFactorRegistersFromAnAAL2SessionOnly() async throws {
        let fixture = try await PasskeysFixture()
        try await fixture.verifyTOTPFactor()
        let plain = try await fixture.signIn()
        await #expect(throws: AccountError.secondFactorNeeded) {
            try await fixture.ceremonies.beginRegistration(
                for: fixture.user, bearer: plain, app: fixture.app, sourceIP: nil)
        }
    }
}
