import AuthKit
import GatehouseJSON
import JOSE
import Store
import Testing

/// `POST /auth/refresh`'s limit: 10 refreshes a minute per user, counted before the token is
/// used, exact under races.
struct RefreshLimitTests {
    struct Fixture {
        let clock = TestClock(SessionFixtures.start)
        let store: RecordingStore
        let service: SessionService
        let user: User

        init() async throws {
            store = RecordingStore(try SessionFixtures.store(clock: clock))
            service = SessionService(
                store: store, clock: clock,
                settings: SessionSettings(issuer: "http://127.0.0.1:3000", refreshTokenLifetime: 3600),
                keys: try SigningKeySet.generate())
            try await AppRegistry(store: store).ensureDemoApp()
            user = try await service.users.findOrCreate(phone: try #require(PhoneNumber("+14155550100"))).user
        }

        /// A new session of the fixture's user: its first refresh token.
        func session() async throws -> String {
            let code = try await service.codes.mint(app: "demo", user: user, provider: "phone", isNewUser: false)
            return try await service.exchange(code: code, app: "demo").refreshToken
        }

        /// The user's refresh counters: their counts.
        func counts() async throws -> [JSONValue?] {
            try await store.scan(RateLimiter.table, limit: nil).map { $0["count"] }
        }
    }

    /// A rotation counts the use in its own transaction, and the session's row is read with the
    /// user: a refresh is three round trips (the token, the rotation, the session and its user),
    /// not four, and the count is exact.
    @Test func aRotatingRefreshCountsInItsRotationsOwnTransaction() async throws {
        let fixture = try await Fixture()
        let token = try await fixture.session()
        fixture.store.reset()
        _ = try await fixture.service.refresh(token: token)
        #expect(
            fixture.store.calls == [
                "get RefreshTokens", "transactWrite RefreshTokens RefreshTokens Sessions RateLimits",
                "transactGet Sessions Users",
            ])
        #expect(try await fixture.counts() == [1])
    }

    /// Another refresh of the same token rotates it between this one's read and its rotation:
    /// this rotation is canceled whole, the use is counted by itself, and the token, rotated a
    /// moment ago, takes its one grace use.
    @Test func aRotationThatLosesARaceCountsItsUseOnce() async throws {
        let fixture = try await Fixture()
        let token = try await fixture.session()
        let service = fixture.service
        fixture.store.beforeNextTransaction { _ = try await service.refresh(token: token) }
        fixture.store.reset()
        let graced = try await fixture.service.refresh(token: token)
        #expect(graced.user.id == fixture.user.id)
        #expect(try await fixture.counts() == [2])
        // The other refresh's rotation, this one's (canceled), then the grace's (the successor
        // revoked, a new one put).
        #expect(
            fixture.store.calls.filter { $0.hasPrefix("transactWrite") } == [
                "transactWrite RefreshTokens RefreshTokens Sessions RateLimits",
                "transactWrite RefreshTokens RefreshTokens Sessions RateLimits",
                "transactWrite RefreshTokens RefreshTokens RefreshTokens Sessions",
            ])
    }

    /// A token that expires between its read and its rotation is merely invalid: not a reuse,
    /// and its session goes on.
    @Test func aTokenExpiringBeforeItsRotationIsInvalidNotReused() async throws {
        let fixture = try await Fixture()
        let token = try await fixture.session()
        let clock = fixture.clock
        fixture.store.beforeNextTransaction { clock.set(SessionFixtures.start + 3601) }
        await #expect(throws: RefreshError.invalidRefreshToken) { try await fixture.service.refresh(token: token) }
        #expect(try await fixture.counts() == [1])
        let sessions = try await fixture.store.query(
            "Sessions", partition: .string(fixture.user.id), sortKey: nil, limit: nil, ascending: true)
        #expect(sessions.count == 1)
    }

    /// A use still counts when the rotation fails: its session ended (invalid), or another
    /// refresh rotated the token first (then a reuse, ending the session); each counts once.
    @Test func aRefreshThatCannotRotateStillCountsOnce() async throws {
        let fixture = try await Fixture()
        let ended = try await fixture.session()
        try await fixture.service.refreshTokens.endSessions(userID: fixture.user.id)
        await #expect(throws: RefreshError.invalidRefreshToken) { try await fixture.service.refresh(token: ended) }
        #expect(try await fixture.counts() == [1])

        let token = try await fixture.session()
        _ = try await fixture.service.refresh(token: token)
        fixture.clock.set(SessionFixtures.start + 30)  // past the reuse grace, in the same minute
        await #expect(throws: RefreshError.refreshTokenReused) { try await fixture.service.refresh(token: token) }
        #expect(try await fixture.counts() == [3])
    }

    @Test func theEleventhRefreshInAMinuteIsRefusedAndTheTokenKept() async throws {
        let fixture = try await Fixture()
        fixture.clock.set(SessionFixtures.start + 60 * 1000)
        var token = try await fixture.session()
        for second in 0..<10 {
            fixture.clock.set(SessionFixtures.start + 60 * 1000 + Double(second))
            token = try await fixture.service.refresh(token: token).refreshToken
        }
        fixture.clock.set(SessionFixtures.start + 60 * 1000 + 15)
        await #expect(throws: SignInError.rateLimited(retryAfter: 45)) {
            try await fixture.service.refresh(token: token)
        }
        // Another session of the same user is the same user: refused too.
        let other = try await fixture.session()
        await #expect(throws: SignInError.rateLimited(retryAfter: 45)) {
            try await fixture.service.refresh(token: other)
        }
        // The refused token was not used: the next minute it refreshes, and is not a reuse.
        fixture.clock.set(SessionFixtures.start + 61 * 1000)
        let next = try await fixture.service.refresh(token: token)
        #expect(next.user.id == fixture.user.id)
        #expect(try await fixture.service.refresh(token: other).user.id == fixture.user.id)
    }

    /// Supabase's refresh grant (`refreshed`) counts against the same limit as `refresh`: one
    /// route cannot walk around the other's.
    @Test func bothRoutesCountAgainstOneLimit() async throws {
        let fixture = try await Fixture()
        var token = try await fixture.session()
        for _ in 0..<5 {
            token = try await fixture.service.refreshed(token: token).session.refreshToken
            token = try await fixture.service.refresh(token: token).refreshToken
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 60)) {
            try await fixture.service.refreshed(token: token)
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 60)) {
            try await fixture.service.refresh(token: token)
        }
    }

    /// Fifteen sessions of one user refreshed at once: exactly ten succeed.
    @Test func racingRefreshesOfOneUserAllowExactlyTen() async throws {
        let fixture = try await Fixture()
        var tokens: [String] = []
        for _ in 0..<15 { tokens.append(try await fixture.session()) }
        let service = fixture.service
        let outcomes = await withTaskGroup(of: Result<SessionResponse, any Error>.self) { group in
            for token in tokens {
                group.addTask {
                    do { return .success(try await service.refresh(token: token)) } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: [Result<SessionResponse, any Error>]()) { $0.append($1) }
        }
        let refused = outcomes.compactMap { outcome -> SignInError? in
            guard case .failure(let error) = outcome else { return nil }
            return error as? SignInError
        }
        #expect(outcomes.filter { if case .success = $0 { true } else { false } }.count == 10)
        #expect(refused.count == 5)
        #expect(refused.allSatisfy { if case .rateLimited = $0 { true } else { false } })
    }
}
