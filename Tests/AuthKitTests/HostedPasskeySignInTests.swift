import AuthKit
import Foundation
import GatehouseJSON
import PasskeyKit
import Store
import StoreCore
import Testing
import WebAuthnTesting

/// The hosted page's passkey sign-in over the store: an auth code whose session starts at
/// `aal2`, redeemed only while its passkey is still there and not flagged, and nothing minted
/// for an assertion that fails a check; and the hosted page's post check.
struct HostedPasskeySignInTests {
    /// A hosted sign-in with `authenticator` as the fixture's user: the redirect.
    static func hostedSignIn(
        _ fixture: PasskeysFixture, with authenticator: SoftwareAuthenticator
    ) async throws -> String {
        let begun = try await fixture.ceremonies.beginSignIn(app: fixture.app, sourceIP: "192.0.2.1")
        return try await fixture.ceremonies.finishHostedSignIn(
            challengeID: begun.challenge.id,
            credential: try authenticator.assertionJSON(
                options: begun.options, userHandle: Array(fixture.user.id.utf8)),
            app: fixture.app, platform: .web, sourceIP: "192.0.2.1"
        ).redirect
    }

    /// The `code` of a redirect to the demo app's callback.
    static func code(of redirect: String) throws -> String {
        let prefix = "http://127.0.0.1:3000/app/auth/callback?code="
        #expect(redirect.hasPrefix(prefix), "\(redirect)")
        return String(try #require(redirect.split(separator: "=", maxSplits: 1).last))
    }

    @Test func theCodeStartsAnAAL2SessionOfThePasskeysUser() async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        try await fixture.register(authenticator)
        let code = try Self.code(of: try await Self.hostedSignIn(fixture, with: authenticator))
        let session = try await fixture.sessions.exchange(code: code, app: "demo")
        let claims = try fixture.claims(session.accessToken)
        #expect(claims["aal"] == "aal2" && claims["sub"] == .string(fixture.user.id))
        let methods = claims["amr"]?.arrayValue?.compactMap { $0["method"]?.stringValue }
        #expect(methods == ["webauthn", "passkey"])
        let stored = try await fixture.ceremonies.passkeys.list(userID: fixture.user.id)
        #expect(stored.first?.lastUsedAt != nil)
    }

    @Test func theSessionEndsWithItsPasskey() async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        let passkey = try await fixture.register(authenticator)
        let code = try Self.code(of: try await Self.hostedSignIn(fixture, with: authenticator))
        let session = try await fixture.sessions.exchange(code: code, app: "demo")
        try await fixture.ceremonies.passkeys.remove(passkey.id, userID: fixture.user.id)
        await #expect(throws: (any Error).self) {
            try await fixture.sessions.bearer("Bearer \(session.accessToken)", app: "demo")
        }
    }

    @Test func aPasskeyAddedBeforeTheUsersSecondFactorDoesNotSignInHere() async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        try await fixture.register(authenticator)
        try await fixture.verifyTOTPFactor()
        await #expect {
            try await Self.hostedSignIn(fixture, with: authenticator)
        } throws: { error in
            guard case PasskeyError.verificationFailed = error else { return false }
            return true
        }
    }

    @Test(arguments: ["removed", "flagged"])
    func aCodeWhosePasskeyWentSinceStartsNoSession(_ change: String) async throws {
        let fixture = try await PasskeysFixture()
        let authenticator = PasskeysFixture.authenticator()
        let passkey = try await fixture.register(authenticator)
        let code = try Self.code(of: try await Self.hostedSignIn(fixture, with: authenticator))
        if change == "removed" {
            try await fixture.ceremonies.passkeys.remove(passkey.id, userID: fixture.user.id)
        } else {
            try await fixture.ceremonies.passkeys.flag(passkey)
        }
        await #expect(throws: SessionError.invalidCode) {
            try await fixture.sessions.exchange(code: code, app: "demo")
        }
        // No session row was written: the exchange's one transaction failed whole.
        #expect(try await fixture.store.scan(RefreshTokens.sessionsTable, limit: nil).count == 1)
    }

    @Test func anAssertionWithoutUserVerificationMintsNothing() async throws {
        let fixture = try await PasskeysFixture()
        var authenticator = PasskeysFixture.authenticator()
        try await fixture.register(authenticator)
        authenticator.verifiesUser = false
        await #expect(throws: PasskeyError.self) { try await Self.hostedSignIn(fixture, with: authenticator) }
        let codes = try await fixture.store.scan(AuthCodes.table, limit: nil)
        #expect(codes.isEmpty)
    }

    @Test func aPostCountsOnlyFromTheAPIsOwnPageWithItsToken() throws {
        let issuer = "http://127.0.0.1:3000"
        let form = ["csrf": "token"]
        let cookie: (String) -> String? = { $0 == "gh_csrf" ? "token" : nil }
        try HostedPost.check(form: form, origin: issuer, fetchSite: nil, cookie: cookie, issuer: issuer)
        try HostedPost.check(form: form, origin: "null", fetchSite: "same-origin", cookie: cookie, issuer: issuer)
        for (origin, site) in [("https://evil.example", "cross-site"), ("null", "same-site")] {
            #expect(throws: SignInError.crossSiteRequest) {
                try HostedPost.check(form: form, origin: origin, fetchSite: site, cookie: cookie, issuer: issuer)
            }
        }
        #expect(throws: SignInError.crossSiteRequest) {
            try HostedPost.check(
                form: ["csrf": "other"], origin: issuer, fetchSite: nil, cookie: cookie, issuer: issuer)
        }
        #expect(throws: SignInError.crossSiteRequest) {
            try HostedPost.check(form: form, origin: issuer, fetchSite: nil, cookie: { _ in nil }, issuer: issuer)
        }
    }
}
