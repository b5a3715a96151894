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
        try await AppRegistry(store: store).ensureDemoApp()

        let session = try await service.exchange(code: code, app: "demo")
        #expect(
            session.user
                == .init(
                    id: user.id, email: "ada@example.com", name: "Ada", provider: "email", isNewUser: true,
                    appMetadata: ["provider": "email", "providers": ["email"]]))
        #expect(session.accessTokenExpiresAt == (SessionFixtures.start + 300) * 1000)
        #expect(session.refreshTokenExpiresAt == (SessionFixtures.start + 3600) * 1000)
        await #expect(throws: SessionError.invalidCode) { try await service.exchange(code: code, app: "demo") }

        // The access token verifies against the published keys, for the app, with the user's data.
        let verifier = JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"])
        let published = VerificationKeySet(jwks: keys.publicJWKS.keys)
        let verified = try verifier.verify(session.accessToken, keys: published, now: SessionFixtures.start)
        #expect(verified.subject == user.id)
        #expect(verified.kid == keys.current.kid)
        #expect(verified.claims["iat"] == .number(SessionFixtures.start))
        #expect(verified.claims["exp"] == .number(SessionFixtures.start + 300))
        #expect(verified.claims["jti"]?.stringValue?.utf8.count == 22)
        // What Supabase's clients and row-level security read.
        #expect(verified.claims["role"] == "authenticated" && verified.claims["is_anonymous"] == false)
        #expect(verified.claims["email"] == "ada@example.com" && verified.claims["phone"] == nil)
        #expect(verified.claims["session_id"] != nil && verified.claims["session_id"] == verified.claims["sid"])
        #expect(verified.claims["app_metadata"] == ["provider": "email", "providers": ["email"]])
        #expect(verified.claims["user_metadata"] == [:])
        // The session it belongs to, so an authorizer can refuse it once the session ends.
        let sessions = try await store.scan(RefreshTokens.sessionsTable, limit: nil)
        #expect(sessions.count == 1)
        #expect(verified.claims["sid"] != nil && verified.claims["sid"] == sessions.first?["sessionId"])
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
        #expect(again.claims["sid"] == verified.claims["sid"])

        // A deleted user cannot refresh, and the session ends.
        _ = try await store.delete(UserDirectory.usersTable, key: ItemKey(.string(user.id)), condition: nil)
        await #expect(throws: RefreshError.invalidRefreshToken) {
            try await service.refresh(token: refreshed.refreshToken)
        }
        #expect(try await store.scan(RefreshTokens.sessionsTable, limit: nil).isEmpty)
    }

    struct Setup {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let service: SessionService
        let user: User

        init() async throws {
            store = try SessionFixtures.store(clock: clock)
            service = SessionService(
                store: store, clock: clock, settings: SessionSettings(issuer: "http://127.0.0.1:3000"),
                keys: try SessionServiceTests.keys.get())
            user = try await service.users.findOrCreate(email: try #require(EmailAddress("ada@example.com"))).user
            try await AppRegistry(store: store).ensureDemoApp()
        }

        func count(_ table: String) async throws -> Int { try await store.scan(table, limit: nil).count }
    }

    /// The code is spent exactly when a session starts: a code whose user was deleted since it
    /// was minted starts nothing and is not spent; an expired code starts nothing.
    @Test func anExchangeSpendsTheCodeOnlyWithASession() async throws {
        let setup = try await Setup()
        let service = setup.service
        let code = try await service.codes.mint(app: "demo", user: setup.user, provider: "email", isNewUser: false)
        _ = try await setup.store.delete(UserDirectory.usersTable, key: ItemKey(.string(setup.user.id)), condition: nil)
        await #expect(throws: SessionError.invalidCode) { try await service.exchange(code: code, app: "demo") }
        #expect(try await setup.count(AuthCodes.table) == 1)
        #expect(try await setup.count(RefreshTokens.sessionsTable) == 0)
        #expect(try await setup.count(RefreshTokens.tokensTable) == 0)

        let other = try await service.users.findOrCreate(email: try #require(EmailAddress("bob@example.com"))).user
        let late = try await service.codes.mint(app: "demo", user: other, provider: "email", isNewUser: false)
        setup.clock.set(SessionFixtures.start + 60)
        await #expect(throws: SessionError.invalidCode) { try await service.exchange(code: late, app: "demo") }
        #expect(try await setup.count(RefreshTokens.sessionsTable) == 0)

        // A code of an app removed since it was minted starts nothing.
        let apps = AppRegistry(store: setup.store)
        try await apps.add(App(id: "gone", name: "Gone", baseURL: nil, mobileScheme: nil, publicKeys: []))
        setup.clock.set(SessionFixtures.start + 100)
        let orphan = try await service.codes.mint(app: "gone", user: other, provider: "email", isNewUser: false)
        try await apps.remove(id: "gone")
        await #expect(throws: SessionError.invalidCode) { try await service.exchange(code: orphan, app: "demo") }
        #expect(try await setup.count(RefreshTokens.sessionsTable) == 0)

    }

    /// A code presented for another app is refused as an unknown code is, and spent: it cannot
    /// be probed, nor used afterwards by its own app. Before, the exchange took any app's code.
    @Test func anExchangeForAnotherAppSpendsTheCode() async throws {
        let setup = try await Setup()
        let service = setup.service
        try await service.apps.add(App(id: "shop", name: "Shop", baseURL: nil, mobileScheme: nil, publicKeys: []))
        let code = try await service.codes.mint(app: "demo", user: setup.user, provider: "email", isNewUser: false)
        await #expect(throws: SessionError.invalidCode) { try await service.exchange(code: code, app: "shop") }
        #expect(try await setup.count(AuthCodes.table) == 0)
        await #expect(throws: SessionError.invalidCode) { try await service.exchange(code: code, app: "demo") }
        #expect(try await setup.count(RefreshTokens.sessionsTable) == 0)
    }

    /// An app that redeems its codes only through its backend: a public exchange of its code is
    /// refused as an unknown code, and spends it.
    @Test func aBackendOnlyAppsCodeIsRefusedOnThePublicRoute() async throws {
        let setup = try await Setup()
        let service = setup.service
        try await service.apps.add(
            App(id: "bank", name: "Bank", baseURL: nil, mobileScheme: nil, publicKeys: [], redeem: [.backend]))
        let code = try await service.codes.mint(app: "bank", user: setup.user, provider: "email", isNewUser: false)
        await #expect(throws: SessionError.invalidCode) { try await service.exchange(code: code, app: "bank") }
        #expect(try await setup.count(AuthCodes.table) == 0)
        #expect(try await setup.count(RefreshTokens.sessionsTable) == 0)
    }

    /// Fifty exchanges of one code at once: one session, and every other one is told the code
    /// is invalid.
    @Test func fiftyConcurrentExchangesStartOneSession() async throws {
        let setup = try await Setup()
        let service = setup.service
        let code = try await service.codes.mint(app: "demo", user: setup.user, provider: "email", isNewUser: false)
        let outcomes = await withTaskGroup(of: Result<SessionResponse, any Error>.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do { return .success(try await service.exchange(code: code, app: "demo")) } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count { if case .success = $0 { true } else { false } } == 1)
        for case .failure(let error) in outcomes { #expect(error as? SessionError == .invalidCode) }
        #expect(try await setup.count(RefreshTokens.sessionsTable) == 1)
        #expect(try await setup.count(AuthCodes.table) == 0)
    }

    /// The exchange reads the code's expiry to the millisecond, as consuming it does.
    @Test(arguments: [(59.0, true), (59.999, true), (60, false), (61, false)])
    func anExchangeHonoursTheCodesMinute(after seconds: Double, works: Bool) async throws {
        let setup = try await Setup()
        let code = try await setup.service.codes.mint(
            app: "demo", user: setup.user, provider: "email", isNewUser: false)
        setup.clock.set(SessionFixtures.start + seconds)
        if works {
            #expect(try await setup.service.exchange(code: code, app: "demo").user.id == setup.user.id)
        } else {
            await #expect(throws: SessionError.invalidCode) {
                try await setup.service.exchange(code: code, app: "demo")
            }
            #expect(try await setup.count(RefreshTokens.sessionsTable) == 0)
        }
    }
}
