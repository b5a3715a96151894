import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import Store
import StoreCore
import Testing

/// A store with the sign-in tables and `Factors`, a clock the test sets, a user signed in by
/// email, and the factors of `Factors` over them, recording to the audit log.
struct FactorsFixture {
    let clock = TestClock(SessionFixtures.start)
    let store: SQLiteStore
    let keys: SigningKeySet
    let sessions: SessionService
    let factors: Factors
    let user: User

    init() async throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("gatehouse-factors-\(UUID().uuidString)/store.sqlite").path
        store = try SQLiteStore(path: path, tables: SessionFixtures.tables, clock: clock)
        keys = try SigningKeySet.generate()
        var sessions = SessionService(
            store: store, clock: clock, settings: SessionSettings(issuer: "http://127.0.0.1:3000"), keys: keys)
        // Recording, as a function's does: refused proofs are in the audit log.
        sessions.audit = AuditLog(store: store, clock: clock)
        self.sessions = sessions
        factors = Factors(
            store: store, clock: clock, secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)),
            sessions: sessions)
        try await AppRegistry(store: store).ensureDemoApp()
        user = try await sessions.users.findOrCreate(email: try #require(EmailAddress("ada@example.com"))).user
    }

    /// A new session of `user` (the fixture's by default), and its bearer as the routes see it.
    func signIn(_ who: User? = nil) async throws -> (session: SessionResponse, bearer: AccessTokens.Bearer) {
        let code = try await sessions.codes.mint(app: "demo", user: who ?? user, provider: "email", isNewUser: false)
        let session = try await sessions.exchange(code: code, app: "demo")
        return (session, try await bearer(session.accessToken))
    }

    func bearer(_ accessToken: String) async throws -> AccessTokens.Bearer {
        try await sessions.bearer("Bearer \(accessToken)", app: "demo")
    }

    func claims(_ token: String) throws -> LazyJSONObject {
        let verifier = JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"])
        return try verifier.verify(token, keys: VerificationKeySet(jwks: keys.publicJWKS.keys), now: clock.now).claims
    }

    /// An enrolled factor and its secret's bytes.
    func enroll(_ bearer: AccessTokens.Bearer, name: String = "phone app") async throws -> (Factor, [UInt8]) {
        let enrollment = try await factors.enroll(friendlyName: name, issuer: "Gatehouse", for: user, bearer: bearer)
        return (enrollment.factor, try #require(Base32.decode(enrollment.secret)))
    }

    /// The code of `secret` now, `offset` steps away.
    func code(_ secret: [UInt8], offset: Int64 = 0) -> String {
        TOTP.code(secret: secret, step: TOTP.step(at: clock.now) + offset)
    }

    /// A challenge of `factor` and its verify with `code`.
    func verify(
        _ factor: Factor, code: String, bearer: AccessTokens.Bearer, sourceIP: String? = "203.0.113.9"
    ) async throws -> SessionResponse {
        let challenge = try await factors.challenge(factor.id, bearer: bearer)
        return try await factors.verify(
            factor.id, challengeID: challenge.id, code: code, user: user, bearer: bearer, sourceIP: sourceIP)
    }
}
