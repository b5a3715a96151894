import AuthKit
import GatehouseJSON
import JOSE
import Store
import Testing

/// A session's state lives on its `Sessions` row alone: every access token, the first and each
/// refreshed one, says what the row says, and a change to the row alone shows up in the next.
struct SessionStateTests {
    struct Fixture {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let keys: SigningKeySet
        let service: SessionService
        let user: User

        init() async throws {
            store = try SessionFixtures.store(clock: clock)
            keys = try SigningKeySet.generate()
            service = SessionService(
                store: store, clock: clock, settings: SessionSettings(issuer: "http://127.0.0.1:3000"), keys: keys)
            try await AppRegistry(store: store).ensureDemoApp()
            user = try await service.users.findOrCreate(email: try #require(EmailAddress("ada@example.com"))).user
        }

        func claims(_ token: String) throws -> LazyJSONObject {
            let verifier = JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"])
            return try verifier.verify(token, keys: VerificationKeySet(jwks: keys.publicJWKS.keys), now: clock.now)
                .claims
        }

        /// A session of the fixture's user, signed in with `provider`.
        func signIn(_ provider: String = "email") async throws -> SessionResponse {
            let code = try await service.codes.mint(app: "demo", user: user, provider: provider, isNewUser: false)
            return try await service.exchange(code: code, app: "demo")
        }

        /// The user's only session row.
        func row() async throws -> Item {
            let rows = try await store.query(
                RefreshTokens.sessionsTable, partition: .string(user.id), sortKey: nil, limit: nil, ascending: true)
            try #require(rows.count == 1)
            return rows[0]
        }
    }

    @Test func theRowHoldsTheSessionAndTheTokensSayWhatItSays() async throws {
        let fixture = try await Fixture()
        let session = try await fixture.signIn("email")
        let row = try await fixture.row()
        // `amr` in Supabase's words: an emailed link's sign-in is `otp`.
        let started: JSONValue = ["method": "otp", "timestamp": .number(SessionFixtures.start)]
        #expect(row["method"] == "email" && row["aal"] == "aal1" && row["amr"] == [started] && row["app"] == "demo")
        let first = try fixture.claims(session.accessToken)
        #expect(first["aal"] == "aal1" && first["amr"] == [started] && first["sid"] == row["sessionId"])

        // The refresh tokens carry no assurance (their app and method are only for the previous
        // version, during a deploy).
        let tokens = try await fixture.store.scan(RefreshTokens.tokensTable, limit: nil)
        #expect(tokens.allSatisfy { $0["aal"] == nil && $0["amr"] == nil && $0["app"] == "demo" })

        // Raised on the row alone (what a second factor will do), the next token says so.
        let totp: JSONValue = ["method": "totp", "timestamp": .number(SessionFixtures.start + 50)]
        _ = try await fixture.store.update(
            RefreshTokens.sessionsTable, key: ItemKey(row["userId"]!, row["sessionId"]!),
            actions: [.set("aal", "aal2"), .set("amr", [started, totp])], condition: .itemExists)
        fixture.clock.set(SessionFixtures.start + 60)
        let refreshed = try await fixture.service.refresh(token: session.refreshToken)
        let next = try fixture.claims(refreshed.accessToken)
        #expect(next["aal"] == "aal2" && next["amr"] == [started, totp])
        #expect(next.object("data")?["provider"] == "email" && next["aud"] == "demo")
    }

    /// A session started before its row held its method (the token carried it) refreshes as it
    /// did, with one factor, and its new tokens carry the method on until it ends.
    @Test func aSessionFromBeforeRowsHeldTheirMethodStillRefreshes() async throws {
        let fixture = try await Fixture()
        let session = try await fixture.signIn("apple")
        var row = try await fixture.row()
        for name in ["method", "aal", "amr"] { row[name] = nil }
        try await fixture.store.put(RefreshTokens.sessionsTable, item: row, condition: .itemExists)
        var token = try #require(try await fixture.store.scan(RefreshTokens.tokensTable, limit: nil).first)
        token["provider"] = "apple"
        token["app"] = "demo"
        try await fixture.store.put(RefreshTokens.tokensTable, item: token, condition: .itemExists)

        let refreshed = try await fixture.service.refresh(token: session.refreshToken)
        #expect(refreshed.user.provider == "apple")
        let claims = try fixture.claims(refreshed.accessToken)
        #expect(claims["aal"] == "aal1" && claims.object("data")?["provider"] == "apple")
        #expect(claims["amr"]?.arrayValue?.first?["method"] == "oauth")
        let successor = try #require(
            try await fixture.store.get(
                RefreshTokens.tokensTable, key: ItemKey(.string(RefreshTokens.hash(refreshed.refreshToken)))))
        #expect(successor["provider"] == "apple")
        #expect(try await fixture.service.refresh(token: refreshed.refreshToken).user.provider == "apple")
    }

    /// A session whose row is given an earlier end (what a sign-out of every device or an admin
    /// will write) refreshes no more from then on, whatever its tokens say.
    @Test func anEndWrittenOnTheRowEndsTheSession() async throws {
        let fixture = try await Fixture()
        let session = try await fixture.signIn("email")
        let row = try await fixture.row()
        _ = try await fixture.store.update(
            RefreshTokens.sessionsTable, key: ItemKey(row["userId"]!, row["sessionId"]!),
            actions: [.set("endsAt", .number(SessionFixtures.start + 30))], condition: .itemExists)
        fixture.clock.set(SessionFixtures.start + 30)
        await #expect(throws: RefreshError.invalidRefreshToken) {
            try await fixture.service.refresh(token: session.refreshToken)
        }
    }

    /// A row the refresh cannot read (a member of the wrong type) refuses the token as unknown:
    /// no access token is made from a guess.
    @Test func aRowItCannotReadRefusesTheToken() async throws {
        let fixture = try await Fixture()
        let session = try await fixture.signIn("email")
        var row = try await fixture.row()
        row["amr"] = ["password"]
        try await fixture.store.put(RefreshTokens.sessionsTable, item: row, condition: .itemExists)
        await #expect(throws: RefreshError.invalidRefreshToken) {
            try await fixture.service.refresh(token: session.refreshToken)
        }
    }
}

/// An access token carries the user's `user_metadata` up to `AccessTokens.userMetadataLimit`
/// bytes of JSON, and none past it: a token must fit in a request's headers.
struct AccessTokenMetadataTests {
    @Test func userMetadataIsCarriedUpToItsLimit() async throws {
        let fixture = try await SessionStateTests.Fixture()
        var user = fixture.user
        user.metadata = ["plan": "pro"]
        try await fixture.store.put(UserDirectory.usersTable, item: user.item, condition: .itemExists)
        func signIn(_ user: User) async throws -> LazyJSONObject {
            let code = try await fixture.service.codes.mint(
                app: "demo", user: user, provider: "email", isNewUser: false)
            return try fixture.claims(try await fixture.service.exchange(code: code, app: "demo").accessToken)
        }
        let small = try await signIn(user)
        #expect(small["user_metadata"] == ["plan": "pro"])
        user.metadata = ["notes": .string(String(repeating: "x", count: AccessTokens.userMetadataLimit))]
        try await fixture.store.put(UserDirectory.usersTable, item: user.item, condition: nil)
        let large = try await signIn(user)
        #expect(large["user_metadata"] == [:])
    }
}
