import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import PasskeyKit
import Store
import StoreCore
import Testing
import WebAuthn
import WebAuthnTesting

/// A store with the sign-in tables and `Passkeys`, a clock the test sets, the demo app, a user
/// signed in by email, and passkeys' ceremonies over them (RP ID `localhost`, the API at
/// `http://127.0.0.1:3000`, the demo app's origin too).
struct PasskeysFixture {
    let clock = TestClock(SessionFixtures.start)
    let store: SQLiteStore
    let keys: SigningKeySet
    let sessions: SessionService
    let ceremonies: PasskeyCeremonies
    let app: App
    let user: User

    init() async throws {
        store = try SessionFixtures.store(clock: clock)
        keys = try SigningKeySet.generate()
        sessions = SessionService(
            store: store, clock: clock, settings: SessionSettings(issuer: "http://127.0.0.1:3000"), keys: keys)
        ceremonies = PasskeyCeremonies(
            store: store, clock: clock, sessions: sessions,
            settings: PasskeySettings(rpID: "localhost", apiOrigin: "http://127.0.0.1:3000"))
        let apps = AppRegistry(store: store)
        try await apps.ensureDemoApp()
        app = try #require(try await apps.app(id: "demo"))
        user = try await sessions.users.findOrCreate(email: try #require(EmailAddress("ada@example.com"))).user
    }

    /// A software authenticator on the API's own origin (the hosted page's).
    static func authenticator() -> SoftwareAuthenticator {
        var authenticator = SoftwareAuthenticator()
        authenticator.origin = "http://127.0.0.1:3000"
        return authenticator
    }

    /// A new session of `who` (the fixture's user by default), and its bearer.
    func signIn(_ who: User? = nil) async throws -> AccessTokens.Bearer {
        let code = try await sessions.codes.mint(app: "demo", user: who ?? user, provider: "email", isNewUser: false)
        let session = try await sessions.exchange(code: code, app: "demo")
        return try await sessions.bearer("Bearer \(session.accessToken)", app: "demo")
    }

    /// `authenticator`'s credential registered for `who` from a new session: the passkey.
    @discardableResult
    func register(_ authenticator: SoftwareAuthenticator, for who: User? = nil) async throws -> Passkey {
        let owner = who ?? user
        let bearer = try await signIn(owner)
        let begun = try await ceremonies.beginRegistration(for: owner, bearer: bearer, app: app, sourceIP: "192.0.2.1")
        return try await ceremonies.finishRegistration(
            challengeID: begun.challenge.id, credential: try authenticator.registrationJSON(options: begun.options),
            user: owner, bearer: bearer, app: app)
    }

    /// A sign-in with `authenticator` as `who` (its user handle) from `sourceIP`.
    func signIn(
        with authenticator: SoftwareAuthenticator, as who: User? = nil, sourceIP: String = "192.0.2.1"
    ) async throws -> (user: User, session: SessionResponse) {
        let begun = try await ceremonies.beginSignIn(app: app, sourceIP: sourceIP)
        return try await ceremonies.finishSignIn(
            challengeID: begun.challenge.id,
            credential: try authenticator.assertionJSON(
                options: begun.options, userHandle: Array((who ?? user).id.utf8)),
            app: app, sourceIP: sourceIP)
    }

    /// The user turns MFA on: a TOTP factor enrolled and verified from a new session.
    func verifyTOTPFactor() async throws {
        let factors = Factors(
            store: store, clock: clock, secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)), sessions: sessions
        )
        let bearer = try await signIn()
        let enrollment = try await factors.enroll(friendlyName: "phone", issuer: "Gatehouse", for: user, bearer: bearer)
        let challenge = try await factors.challenge(enrollment.factor.id, bearer: bearer)
        let secret = try #require(Base32.decode(enrollment.secret))
        _ = try await factors.verify(
            enrollment.factor.id, challengeID: challenge.id,
            code: TOTP.code(secret: secret, step: TOTP.step(at: clock.now)), user: user, bearer: bearer, sourceIP: nil)
    }

    func claims(_ token: String) throws -> LazyJSONObject {
        let verifier = JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"])
        return try verifier.verify(token, keys: VerificationKeySet(jwks: keys.publicJWKS.keys), now: clock.now).claims
    }

    /// The number of items in `Passkeys` under `partition`.
    func items(under partition: String) async throws -> Int {
        try await store.query(Passkeys.table, partition: .string(partition), sortKey: nil, limit: nil, ascending: true)
            .count
    }
}
