import AuthKit
import GatehouseJSON
import JOSE
import Store
import Testing

/// What the phone-first design's clients read: the `phone` claim and `expiresIn`, and one rule
/// for the app a request names or leaves out.
struct MobileShapesTests {
    @Test func aPhoneUsersAccessTokensCarryThePhoneClaimAndTheAnswersExpiresIn() async throws {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        let keys = try SigningKeySet.generate()
        let service = SessionService(
            store: store, clock: clock,
            settings: SessionSettings(issuer: "http://127.0.0.1:3000", accessTokenLifetime: 3600), keys: keys)
        try await AppRegistry(store: store).ensureDemoApp()
        let (user, _) = try await service.users.findOrCreate(phone: try #require(PhoneNumber("+14155550100")))
        let code = try await service.codes.mint(app: "demo", user: user, provider: "phone", isNewUser: true)
        let session = try await service.exchange(code: code, app: "demo")
        #expect(session.expiresIn == 3600)
        #expect(session.json["expiresIn"] == 3600)
        let verifier = JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"])
        let published = VerificationKeySet(jwks: keys.publicJWKS.keys)
        let first = try verifier.verify(session.accessToken, keys: published, now: SessionFixtures.start)
        #expect(first.claims["phone"] == "+14155550100")

        clock.set(SessionFixtures.start + 10)
        let refreshed = try await service.refresh(token: session.refreshToken)
        #expect(refreshed.json["expiresIn"] == 3600)
        let again = try verifier.verify(refreshed.accessToken, keys: published, now: SessionFixtures.start + 10)
        #expect(again.claims["phone"] == "+14155550100")

        // A user without a number has no such claim.
        let (mailed, _) = try await service.users.findOrCreate(email: try #require(EmailAddress("ada@example.com")))
        let mailedCode = try await service.codes.mint(app: "demo", user: mailed, provider: "email", isNewUser: true)
        let mailedSession = try await service.exchange(code: mailedCode, app: "demo")
        let claims = try verifier.verify(mailedSession.accessToken, keys: published, now: SessionFixtures.start + 10)
        #expect(claims.claims["phone"] == nil)
    }

    @Test func theAppIsTheOneNamedElseTheDefault() throws {
        let demo = DefaultApp(environment: ["DEFAULT_APP": "demo"])
        #expect(try demo.resolve("other") == "other")
        #expect(try demo.resolve(nil) == "demo")
        #expect(try demo.resolve("") == "demo")
        #expect(throws: SignInError.invalidField("app", "is required")) {
            try DefaultApp(environment: [:]).resolve(nil)
        }
        #expect(DefaultApp(environment: ["DEFAULT_APP": ""]).id == nil)
    }
}
