import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import Store
import StoreCore
import Synchronization
import Testing

/// A ban (`UserAdmin.ban`): every session ends at once, so the authorizer's session check
/// refuses a live access token once its cached answer lapses; every sign-in (a session's start,
/// a code's exchange, a refresh) is refused until the ban lapses or is lifted.
struct UserAdminBanTests {
    @Test func aBanEndsALiveSessionWithinTheAuthorizersCacheWindow() async throws {
        let fixture = try await FactorsFixture()
        let admin = UserAdmin(store: fixture.store, clock: fixture.clock, actor: .terminal)
        let keys = JWKSCache(
            url: "http://127.0.0.1:3000/.well-known/jwks.json", fetcher: ServedJWKS(jwks: fixture.keys.publicJWKS))
        try await keys.hydrate()
        let now = fixture.clock.now
        let uptime = Mutex<Double>(100)
        let authorizer = AccessTokenAuthorizer(
            verifier: JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"]), keys: keys,
            sessions: SessionCheck(store: fixture.store, cacheSeconds: 30, uptime: { uptime.withLock { $0 } }),
            now: { now })
        let (session, _) = try await fixture.signIn()
        let bearer = "Bearer \(session.accessToken)"
        #expect(await authorizer.decide(authorization: bearer).reason == "ok")
        try await admin.ban(id: fixture.user.id, forSeconds: 86_400)
        // Within the cache window the remembered answer stands; past it, the ended session is refused.
        uptime.withLock { $0 = 129 }
        #expect(await authorizer.decide(authorization: bearer).reason == "ok")
        uptime.withLock { $0 = 131 }
        #expect(await authorizer.decide(authorization: bearer).reason != "ok")
        // Its refresh token is refused too.
        await #expect(throws: (any Error).self) { try await fixture.sessions.refresh(token: session.refreshToken) }
    }

    @Test func aBannedUserCannotSignInUntilTheBanIsLiftedOrLapses() async throws {
        let fixture = try await FactorsFixture()
        let admin = UserAdmin(store: fixture.store, clock: fixture.clock, actor: .terminal)
        let banned = try await admin.ban(id: fixture.user.id, forSeconds: 3600)
        #expect(banned.bannedUntil == (fixture.clock.now + 3600) * 1000)
        // The choke point every sign-in passes, and a code minted before the ban.
        let code = try await fixture.sessions.codes.mint(
            app: "demo", user: fixture.user, provider: "email", isNewUser: false)
        await #expect(throws: SessionError.banned) {
            try await fixture.sessions.start(user: fixture.user, app: "demo", provider: "email")
        }
        await #expect(throws: SessionError.banned) { try await fixture.sessions.exchange(code: code, app: "demo") }
        // Lifted: a sign-in works at once.
        try await admin.ban(id: fixture.user.id, forSeconds: nil)
        _ = try await fixture.sessions.start(user: fixture.user, app: "demo", provider: "email")
        // Banned again, then the ban lapses.
        try await admin.ban(id: fixture.user.id, forSeconds: 60)
        await #expect(throws: SessionError.banned) {
            try await fixture.sessions.start(user: fixture.user, app: "demo", provider: "email")
        }
        fixture.clock.set(fixture.clock.now + 61)
        _ = try await fixture.sessions.start(user: fixture.user, app: "demo", provider: "email")
        #expect(
            try await fixture.sessions.users.user(id: fixture.user.id)?.isBanned(at: fixture.clock.now * 1000) == false)
    }

    @Test func aRefreshOfABannedUserIsRefusedEvenIfItsSessionSurvived() async throws {
        let fixture = try await FactorsFixture()
        let (session, _) = try await fixture.signIn()
        // The ban stored without its sessions' end (a race with a sign-in): the refresh still refuses.
        var user = try #require(try await fixture.sessions.users.user(id: fixture.user.id))
        user.bannedUntil = (fixture.clock.now + 3600) * 1000
        try await fixture.store.put("Users", item: user.item, condition: nil)
        await #expect(throws: SessionError.banned) { try await fixture.sessions.refresh(token: session.refreshToken) }
    }
}
