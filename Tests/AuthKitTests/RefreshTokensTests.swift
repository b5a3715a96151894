import AuthKit
import GatehouseJSON
import Store
import Testing

struct RefreshTokensTests {
    struct Setup {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let tokens: RefreshTokens

        init(
            rotation: SessionSettings.Rotation = .everyUse, lifetime: Double = 3600,
            maximumSessionLifetime: Double = 86400
        ) throws {
            store = try SessionFixtures.store(clock: clock)
            tokens = RefreshTokens(
                store: store, clock: clock,
                settings: SessionSettings(
                    issuer: "http://127.0.0.1:3000", refreshTokenLifetime: lifetime, rotation: rotation, reuseGrace: 10,
                    maximumSessionLifetime: maximumSessionLifetime)
            )
        }

        func advance(_ seconds: Double) { clock.set(clock.now + seconds) }
    }

    /// `refresh` twenty times at once; every outcome.
    static func twentyAtOnce(
        _ refresh: @escaping @Sendable () async throws -> RefreshGrant
    ) async -> [Result<RefreshGrant, any Error>] {
        await withTaskGroup(of: Result<RefreshGrant, any Error>.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do { return .success(try await refresh()) } catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func tokensAreLongRandomAndStoredOnlyAsHashes() async throws {
        let setup = try Setup()
        let grant = try await setup.tokens.startSession(userID: "u1", app: "demo")
        #expect(grant.token.utf8.count == 128)
        #expect(grant.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(grant.expiresAt == (SessionFixtures.start + 3600) * 1000)
        let stored = try await setup.store.scan("RefreshTokens", limit: nil)
        #expect(stored.count == 1)
        #expect(stored[0]["tokenHash"] == .string(RefreshTokens.hash(grant.token)))
        #expect(!JSONValue.object(stored[0]).serialized.contains(grant.token))
        #expect(RefreshTokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// The session always outlives its newest token, though a rotation writes it only when
    /// the new token would outlive it; a session ended meanwhile stops the rotation either way.
    @Test func theSessionOutlivesItsNewestTokenAndIsExtendedOnlyWhenNeeded() async throws {
        let setup = try Setup(lifetime: 1000)
        var grant = try await setup.tokens.startSession(userID: "u1", app: "demo")
        func sessionTTL() async throws -> Double? {
            try await setup.store.get(RefreshTokens.sessionsTable, key: ItemKey("u1", .string(grant.sessionID)))?[
                "ttl"]?
                .numberValue
        }
        #expect(try await sessionTTL() == SessionFixtures.start + 2000)
        var extensions = 0
        var previous = try await sessionTTL()
        for _ in 0..<12 {
            setup.advance(350)
            grant = try await setup.tokens.refresh(grant.token)
            let ttl = try #require(try await sessionTTL())
            #expect(ttl * 1000 >= grant.expiresAt)
            if ttl != previous { extensions += 1 }
            previous = ttl
        }
        // 4,200 s of refreshes every 350 s with 1,000 s tokens: extended about once per 1,000 s.
        #expect(extensions == 4)

        // Ended between two rotations, whether the next one would only check it (after 10 s) or
        // extend it (at 1,100 s, the new token outliving the session's 2,000).
        for waits in [[10.0], [600, 500]] {
            var other = try await setup.tokens.startSession(userID: "u2", app: "demo")
            for wait in waits.dropLast() {
                setup.advance(wait)
                other = try await setup.tokens.refresh(other.token)
            }
            setup.advance(waits.last!)
            try await setup.tokens.endSessions(userID: "u2")
            await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(other.token) }
        }
    }

    @Test func everyUseRotatesAndAReuseAfterTheGraceEndsTheSession() async throws {
        let setup = try Setup()
        let first = try await setup.tokens.startSession(userID: "u1", app: "demo")
        setup.advance(5)
        let second = try await setup.tokens.refresh(first.token)
        #expect(second.token != first.token)
        #expect(second.sessionID == first.sessionID)
        #expect(second.expiresAt == (SessionFixtures.start + 5 + 3600) * 1000)
        setup.advance(11)
        let third = try await setup.tokens.refresh(second.token)
        // The first token, rotated out 16 s ago: someone kept a copy.
        await #expect(throws: RefreshError.refreshTokenReused) { try await setup.tokens.refresh(first.token) }
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(third.token) }
        #expect(try await setup.store.scan("Sessions", limit: nil).isEmpty)
    }

    /// The client lost the response: within the grace, the old token works once more and the
    /// family goes on with a new token. The successor the client never received is revoked, not
    /// deleted: should it turn up later, someone else has it, and its use ends the session.
    @Test func withinTheGraceAnOldTokenWorksOnceAndRevokesTheLostSuccessor() async throws {
        let setup = try Setup()
        let first = try await setup.tokens.startSession(userID: "u1", app: "demo")
        let lost = try await setup.tokens.refresh(first.token)
        setup.advance(10)
        let retried = try await setup.tokens.refresh(first.token)
        #expect(retried.token != lost.token)
        #expect(retried.sessionID == first.sessionID)
        let lostItem = try await setup.store.get("RefreshTokens", key: ItemKey(.string(RefreshTokens.hash(lost.token))))
        #expect(lostItem?["status"] == "revoked")
        // The session lives on with the retried token, which refreshes as usual.
        #expect(try await setup.store.scan("Sessions", limit: nil).count == 1)
        let next = try await setup.tokens.refresh(retried.token)
        // The revoked successor is refused as a reuse, and that ends the session.
        await #expect(throws: RefreshError.refreshTokenReused) { try await setup.tokens.refresh(lost.token) }
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(next.token) }
        #expect(try await setup.store.scan("Sessions", limit: nil).isEmpty)
    }

    /// A second grace use of the same token is a reuse.
    @Test func aSecondGraceUseIsAReuse() async throws {
        let setup = try Setup()
        let first = try await setup.tokens.startSession(userID: "u1", app: "demo")
        _ = try await setup.tokens.refresh(first.token)
        let retried = try await setup.tokens.refresh(first.token)
        await #expect(throws: RefreshError.refreshTokenReused) { try await setup.tokens.refresh(first.token) }
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(retried.token) }
    }

    /// T1 → T2 → T3, then T1 again inside its grace: T2 was used, so T1's grace is gone. Before
    /// the fix this forked the session: T1 gave T4 while T3 stayed live.
    @Test func aGraceUseAfterTheSuccessorWasUsedIsAReuse() async throws {
        let setup = try Setup()
        let t1 = try await setup.tokens.startSession(userID: "u1", app: "demo")
        let t2 = try await setup.tokens.refresh(t1.token)
        setup.advance(1)
        let t3 = try await setup.tokens.refresh(t2.token)
        setup.advance(1)
        await #expect(throws: RefreshError.refreshTokenReused) { try await setup.tokens.refresh(t1.token) }
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(t3.token) }
        #expect(try await setup.store.scan("Sessions", limit: nil).isEmpty)
    }

    /// With `lifetime-fraction`, using the successor without rotating it uses it all the same.
    @Test func aSuccessorUsedWithoutRotationEndsTheGrace() async throws {
        let setup = try Setup(rotation: .lifetimeFraction(0.8), lifetime: 1000)
        let t1 = try await setup.tokens.startSession(userID: "u1", app: "demo")
        setup.advance(800)
        let t2 = try await setup.tokens.refresh(t1.token)
        setup.advance(1)
        #expect(try await setup.tokens.refresh(t2.token) == t2)
        await #expect(throws: RefreshError.refreshTokenReused) { try await setup.tokens.refresh(t1.token) }
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(t2.token) }
    }

    /// Twenty replays of one rotated-out token at once, inside its grace: at most one succeeds.
    @Test func twentyParallelGraceReplaysSucceedAtMostOnce() async throws {
        let setup = try Setup()
        let first = try await setup.tokens.startSession(userID: "u1", app: "demo")
        _ = try await setup.tokens.refresh(first.token)
        let tokens = setup.tokens
        let outcomes = await Self.twentyAtOnce { try await tokens.refresh(first.token) }
        let grants = outcomes.compactMap { try? $0.get() }
        #expect(grants.count <= 1)
        for outcome in outcomes {
            if case .failure(let error) = outcome { #expect(error is RefreshError, "\(error)") }
        }
    }

    /// However active, a session ends at its absolute lifetime.
    @Test func aSessionEndsAtItsMaximumLifetime() async throws {
        let setup = try Setup(lifetime: 1000, maximumSessionLifetime: 2500)
        var grant = try await setup.tokens.startSession(userID: "u1", app: "demo")
        for _ in 0..<4 {
            setup.advance(500)
            grant = try await setup.tokens.refresh(grant.token)
            #expect(grant.expiresAt <= (SessionFixtures.start + 2500) * 1000)
        }
        // At 2,000 s the newest token was cut to the session's end, 500 s later.
        #expect(grant.expiresAt == (SessionFixtures.start + 2500) * 1000)
        setup.advance(499.999)
        grant = try await setup.tokens.refresh(grant.token)
        setup.advance(0.001)
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(grant.token) }
    }

    /// With `lifetime-fraction` 0.8 of a 1000 s token: the same token until 800 s, a new one at 800 s.
    @Test func lifetimeFractionRotatesAtExactlyItsShare() async throws {
        let setup = try Setup(rotation: .lifetimeFraction(0.8), lifetime: 1000)
        let first = try await setup.tokens.startSession(userID: "u1", app: "demo")
        setup.advance(799.999)
        #expect(try await setup.tokens.refresh(first.token) == first)
        setup.advance(0.001)
        let rotated = try await setup.tokens.refresh(first.token)
        #expect(rotated.token != first.token)
        #expect(rotated.expiresAt == (SessionFixtures.start + 800 + 1000) * 1000)
    }

    /// A token kept (no rotation due) and already used once is refused once its session ends:
    /// the session's row, read last, is that path's only check.
    @Test func aKeptTokenOfALoggedOutSessionIsRefused() async throws {
        let setup = try Setup(rotation: .lifetimeFraction(0.8), lifetime: 1000)
        let first = try await setup.tokens.startSession(userID: "u1", app: "demo")
        setup.advance(10)
        #expect(try await setup.tokens.refresh(first.token) == first)
        try await setup.tokens.logout(first.token, everySession: false)
        setup.advance(10)
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(first.token) }
    }

    @Test func aTokenEndsAtItsExpiry() async throws {
        let setup = try Setup(lifetime: 100)
        let first = try await setup.tokens.startSession(userID: "u1", app: "demo")
        let second = try await setup.tokens.startSession(userID: "u1", app: "demo")
        setup.advance(99.999)
        _ = try await setup.tokens.refresh(first.token)
        setup.advance(0.001)
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(second.token) }
    }

    @Test func logoutEndsOneSessionOrAllOfThem() async throws {
        let setup = try Setup()
        let phone = try await setup.tokens.startSession(userID: "u1", app: "demo")
        let laptop = try await setup.tokens.startSession(userID: "u1", app: "demo")
        let tablet = try await setup.tokens.startSession(userID: "u1", app: "demo")
        let someoneElse = try await setup.tokens.startSession(userID: "u2", app: "demo")

        // Each answers whose sessions it ended, which the audit log records.
        #expect(try await setup.tokens.logout(phone.token, everySession: false) == "u1")
        // Sent again, the token ends nothing and answers no one: nothing more to record. Nor
        // does it end the user's other sessions: its own has ended, so it is no longer theirs.
        #expect(try await setup.tokens.logout(phone.token, everySession: false) == nil)
        #expect(try await setup.tokens.logout(phone.token, everySession: true) == nil)
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(phone.token) }
        let laptopNext = try await setup.tokens.refresh(laptop.token)

        #expect(try await setup.tokens.logout(laptopNext.token, everySession: true) == "u1")
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(laptopNext.token) }
        await #expect(throws: RefreshError.invalidRefreshToken) { try await setup.tokens.refresh(tablet.token) }
        _ = try await setup.tokens.refresh(someoneElse.token)

        // An unknown token is not an error: logout says nothing about which tokens exist.
        #expect(try await setup.tokens.logout("not-a-token", everySession: true) == nil)
    }

    /// Twenty refreshes of one token at once: none fails other than as a refresh error, at most
    /// two succeed (the rotation and the one grace use), and the reuse ends the session.
    @Test func twentyConcurrentRefreshesEndTheFamilyWithoutCrashing() async throws {
        let setup = try Setup()
        let first = try await setup.tokens.startSession(userID: "u1", app: "demo")
        let tokens = setup.tokens
        let outcomes = await Self.twentyAtOnce { try await tokens.refresh(first.token) }
        let grants = outcomes.compactMap { try? $0.get() }
        #expect((1...2).contains(grants.count))
        for outcome in outcomes {
            if case .failure(let error) = outcome { #expect(error is RefreshError, "\(error)") }
        }
        for grant in grants {
            await #expect(throws: RefreshError.invalidRefreshToken) { try await tokens.refresh(grant.token) }
        }
        #expect(try await setup.store.scan("Sessions", limit: nil).isEmpty)
    }
}
