import AuthKit
import GatehouseJSON
import JOSE
import Store
import Testing

struct SessionServiceTests {
    static let keys = Result { try SigningKeySet.generate() }

    @Test func exchangeThenRefreshFollowTheUser() async throws {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        let keys = try Self.keys.get()
        let service = SessionService(
            store: store, clock: clock, settings: SessionSettings(issuer: "http://127.0.0.1:3000"), keys: keys)
        let (user, isNew) = try await service.users.findOrCreate(
            email: try #require(EmailAddress("ada@example.com")), name: "Ada")
        let code = try await service.codes.mint(app: "demo", user: user, provider: "email", isNewUser: isNew)

        let session = try await service.exchange(code: code)
        #expect(
            session.user
                == .init(id: user.id, email: "ada@example.com", name: "Ada", provider: "email", isNewUser: true))
        #expect(session.accessTokenExpiresAt == (SessionFixtures.start + 300) * 1000)
        #expect(session.refreshTokenExpiresAt == (SessionFixtures.start + 3600) * 1000)
        await #expect(throws: SessionError.invalidCode) { try await service.exchange(code: code) }

        // The access token verifies against the published keys, for the app, with the user's data.
        let verifier = JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"])
        let published = VerificationKeySet(jwks: keys.publicJWKS.keys)
        let verified = try verifier.verify(session.accessToken, keys: published, now: SessionFixtures.start)
        #expect(verified.subject == user.id)
        #expect(verified.kid == keys.current.kid)
        #expect(verified.claims["iat"] == .number(SessionFixtures.start))
        #expect(verified.claims["exp"] == .number(SessionFixtures.start + 300))
        #expect(verified.claims["jti"]?.stringValue?.utf8.count == 22)
        #expect(
            verified.claims["data"]
                == ["userId": .string(user.id), "email": "ada@example.com", "name": "Ada", "provider": "email"])

        // A new name shows up in the next access token.
        var renamed = user
        renamed.name = "Ada Lovelace"
        try await store.put(UserDirectory.usersTable, item: renamed.item, condition: .itemExists)
        clock.set(SessionFixtures.start + 100)
        let refreshed = try await service.refresh(token: session.refreshToken)
        #expect(refreshed.user.name == "Ada Lovelace")
        #expect(!refreshed.user.isNewUser)
        #expect(refreshed.refreshToken != session.refreshToken)
        let again = try verifier.verify(refreshed.accessToken, keys: published, now: SessionFixtures.start + 100)
        #expect(again.claims.object("data")?["name"] == "Ada Lovelace")

        // A deleted user cannot refresh, and the session ends.
        _ = try await store.delete(UserDirectory.usersTable, key: ItemKey(.string(user.id)), condition: nil)
        await #expect(throws: RefreshError.invalidRefreshToken) {
            try await service.refresh(token: refreshed.refreshToken)
        }
        #expect(try await store.scan(RefreshTokens.sessionsTable, limit: nil).isEmpty)
    }
}
