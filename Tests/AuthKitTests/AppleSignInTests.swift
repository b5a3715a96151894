import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import Store
import Testing

/// Sign in with Apple's identity tokens, made here with RSA keys of the test's own, served to
/// the JWKS cache from memory.
struct AppleSignInTests {
    static let apple = try! RSASigningKey.generate()
    static let stranger = try! RSASigningKey.generate()
    static let settings = AppleSettings(clientIDs: ["com.example.app"])

    struct Fixture {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let signIn: AppleSignIn
        let verifier: AppleIdentityVerifier

        init() async throws {
            store = try SessionFixtures.store(clock: clock)
            try await AppRegistry(store: store).ensureDemoApp()
            verifier = AppleIdentityVerifier(
                settings: AppleSignInTests.settings,
                keys: JWKSCache(
                    url: "https://appleid.apple.com/auth/keys", fetcher: ServedJWKS([AppleSignInTests.apple.publicJWK])),
                clock: clock)
            let sessions = try SessionFixtures.sessions(store: store, clock: clock)
            signIn = AppleSignIn(identities: verifier, sessions: sessions)
        }

        /// An identity token as Apple makes them, with `changes` applied.
        func token(_ changes: [String: JSONValue] = [:], key: RSASigningKey = AppleSignInTests.apple) throws -> String {
            var claims: [String: JSONValue] = [
                "iss": "https://appleid.apple.com", "aud": "com.example.app", "sub": "001234.abcd",
                "iat": .number(clock.now), "exp": .number(clock.now + 600), "email": "ada@example.com",
                "email_verified": "true", "is_private_email": false,
                "nonce": .string(SHA256Hex.of(Array("n-0S6_WzA2Mj".utf8))),
            ]
            // `.null` removes the claim.
            for (name, value) in changes {
                if value == .null { claims.removeValue(forKey: name) } else { claims[name] = value }
            }
            return try JWS.signJWT(claims: claims, with: key)
        }
    }

    @Test func aValidTokenSignsInANewUserThenTheSameUserAgain() async throws {
        let fixture = try await Fixture()
        let first = try await fixture.signIn.signIn(
            identityToken: try fixture.token(), user: "001234.abcd", nonce: "n-0S6_WzA2Mj", fullName: "Ada Lovelace",
            app: "demo")
        #expect(first.user.isNewUser)
        #expect(first.user.name == "Ada Lovelace")
        #expect(first.user.email == "ada@example.com")
        #expect(first.user.provider == "apple")
        // A later sign-in brings a token of its own (one token starts one session).
        fixture.clock.set(SessionFixtures.start + 1)
        let again = try await fixture.signIn.signIn(
            identityToken: try fixture.token(), user: "001234.abcd", nonce: "n-0S6_WzA2Mj", fullName: "Someone Else",
            app: "demo")
        #expect(!again.user.isNewUser)
        #expect(again.user.id == first.user.id)
    }

    /// Supabase's `grant_type=id_token` sends no `user`: the token's subject is the user, found
    /// as the native flow finds it; a `user` that is not the subject is still refused.
    @Test func withoutAUserTheTokensSubjectIsTheUser() async throws {
        let fixture = try await Fixture()
        let native = try await fixture.signIn.signIn(
            identityToken: try fixture.token(), user: "001234.abcd", nonce: "n-0S6_WzA2Mj", fullName: nil, app: "demo")
        fixture.clock.set(SessionFixtures.start + 1)
        let (user, session) = try await fixture.signIn.signedIn(
            identityToken: try fixture.token(), user: nil, nonce: "n-0S6_WzA2Mj", fullName: nil, app: "demo")
        #expect(user.id == native.user.id && session.user.id == native.user.id && user.providers["apple"] != nil)
        await #expect(throws: SignInError.tokenRefused("user_mismatch")) {
            try await fixture.signIn.signedIn(
                identityToken: try fixture.token(), user: "another", nonce: "n-0S6_WzA2Mj", fullName: nil, app: "demo")
        }
    }

    /// The phone-first design's body: no `user` (the token's subject is the user), and an `email`
    /// the app read from Apple's credential, kept only, unverified and unindexed, when the token
    /// has none; it never links to the account that has that address.
    @Test func withoutUserAndWithAnEmailOnlyWhereTheTokenHasNone() async throws {
        let fixture = try await Fixture()
        let users = UserDirectory(store: fixture.store, clock: fixture.clock)
        let (owner, _) = try await users.findOrCreate(email: EmailAddress("grace@example.com")!)
        let session = try await fixture.signIn.signIn(
            identityToken: try fixture.token(["email": .null, "email_verified": .null]), user: nil,
            nonce: "n-0S6_WzA2Mj", fullName: "Grace Hopper", contactEmail: EmailAddress("grace@example.com"),
            app: "demo")
        #expect(session.user.isNewUser)
        #expect(session.user.id != owner.id)
        #expect(session.user.email == nil)
        let created = try #require(try await users.user(id: session.user.id))
        #expect(created.metadata["contactEmail"] == "grace@example.com")
        #expect(created.email == nil)
        // With an address in the token, the app's is not kept.
        fixture.clock.set(SessionFixtures.start + 1)
        let other = try await fixture.signIn.signIn(
            identityToken: try fixture.token(["sub": "009999.ffff"]), user: nil, nonce: "n-0S6_WzA2Mj", fullName: nil,
            contactEmail: EmailAddress("someone@example.com"), app: "demo")
        let second = try #require(try await users.user(id: other.user.id))
        #expect(second.email == "ada@example.com")
        #expect(second.metadata["contactEmail"] == nil)
    }

    /// An account with the address Apple vouches for gets the Apple subject linked; an
    /// unverified address creates a separate account.
    @Test func aVerifiedAddressLinksToItsAccountAndAnUnverifiedOneDoesNot() async throws {
        let fixture = try await Fixture()
        let users = UserDirectory(store: fixture.store, clock: fixture.clock)
        let (existing, _) = try await users.findOrCreate(email: EmailAddress("ada@example.com")!)
        let linked = try await fixture.signIn.signIn(
            identityToken: try fixture.token(["email_verified": true]), user: "001234.abcd", nonce: "n-0S6_WzA2Mj",
            fullName: nil, app: "demo")
        #expect(linked.user.id == existing.id)
        #expect(!linked.user.isNewUser)
        let separate = try await fixture.signIn.signIn(
            identityToken: try fixture.token(["sub": "009999.ffff", "email_verified": "false"]), user: "009999.ffff",
            nonce: "n-0S6_WzA2Mj", fullName: nil, app: "demo")
        #expect(separate.user.id != existing.id)
        #expect(separate.user.isNewUser)
    }

    /// A stolen or logged identity token cannot start a second session: its SHA-256 is
    /// remembered until it expires, by a conditional write, so racing uses cannot both win.
    @Test func anIdentityTokenStartsOneSessionOnlyEvenWhenUsesRace() async throws {
        let fixture = try await Fixture()
        let token = try fixture.token()
        let signIn = fixture.signIn
        let results = await withTaskGroup(of: Result<SessionResponse, any Error>.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        return .success(
                            try await signIn.signIn(
                                identityToken: token, user: "001234.abcd", nonce: "n-0S6_WzA2Mj", fullName: nil,
                                app: "demo"))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { (try? $0.get()) != nil }.count == 1)
        await #expect(throws: SignInError.tokenRefused("token_used")) {
            try await fixture.signIn.signIn(
                identityToken: token, user: "001234.abcd", nonce: "n-0S6_WzA2Mj", fullName: nil, app: "demo")
        }
        // Only the token's hash is kept, until the token expires (and the verifier's minute of skew).
        let used = try await fixture.store.scan("UsedAssertions", limit: nil)
        #expect(used.count == 1)
        #expect(used.first?["ttl"] == .number(SessionFixtures.start + 600 + 60))
        #expect(!"\(used)".contains(token.split(separator: ".")[1]))
    }

    /// Without the app's opt-out, a sign-in must bring its nonce, and the token must carry it.
    @Test func aSignInWithoutANonceIsRefused() async throws {
        let fixture = try await Fixture()
        await #expect(throws: SignInError.tokenRefused("missing_nonce")) {
            try await fixture.signIn.signIn(
                identityToken: try fixture.token(), user: "001234.abcd", nonce: nil, fullName: nil, app: "demo")
        }
        await #expect(throws: SignInError.tokenRefused("missing_nonce")) {
            try await fixture.signIn.signIn(
                identityToken: try fixture.token(["nonce": .null]), user: "001234.abcd", nonce: nil, fullName: nil,
                app: "demo")
        }
        await #expect(throws: SignInError.tokenRefused("nonce_mismatch")) {
            try await fixture.signIn.signIn(
                identityToken: try fixture.token(["nonce": .null]), user: "001234.abcd", nonce: "n-0S6_WzA2Mj",
                fullName: nil, app: "demo")
        }
        #expect(try await fixture.store.scan("Users", limit: nil).isEmpty)
    }

    /// An app that opted out (a client that cannot send a nonce) signs in without one; a token
    /// that carries a nonce still needs it.
    @Test func anAppThatOptedOutSignsInWithoutANonce() async throws {
        let fixture = try await Fixture()
        let apps = AppRegistry(store: fixture.store)
        var legacy = try App(
            id: "legacy", name: "Legacy", baseURL: nil, mobileScheme: "com.example.legacy", publicKeys: [])
        legacy.appleNonceOptional = true
        try await apps.add(legacy)
        #expect(try await apps.app(id: "legacy")?.appleNonceOptional == true)
        #expect(try await apps.app(id: "demo")?.appleNonceOptional == false)
        let session = try await fixture.signIn.signIn(
            identityToken: try fixture.token(["nonce": .null]), user: "001234.abcd", nonce: nil, fullName: nil,
            app: "legacy")
        #expect(session.user.isNewUser)
        await #expect(throws: SignInError.tokenRefused("missing_nonce")) {
            try await fixture.signIn.signIn(
                identityToken: try fixture.token(["iat": .number(SessionFixtures.start - 1)]), user: "001234.abcd",
                nonce: nil, fullName: nil, app: "legacy")
        }
        await #expect(throws: SignInError.unknownApp) {
            try await fixture.signIn.signIn(
                identityToken: try fixture.token(["iat": .number(SessionFixtures.start - 2)]), user: "001234.abcd",
                nonce: "n-0S6_WzA2Mj", fullName: nil, app: "nobody")
        }
    }

    /// A web "Continue with Apple" (its subject is the Cognito pool's) and the native flow (Apple's
    /// own subject) for one verified address: one user, neither subject overwriting the other.
    @Test func theNativeAndTheWebAppleSubjectsBothStayLinked() async throws {
        let fixture = try await Fixture()
        let users = UserDirectory(store: fixture.store, clock: fixture.clock)
        let (web, _) = try await users.findOrCreate(
            provider: "apple", subject: "cognito-sub-1", verifiedEmail: EmailAddress("ada@example.com"))
        fixture.clock.set(SessionFixtures.start + 1)
        let native = try await fixture.signIn.signIn(
            identityToken: try fixture.token(), user: "001234.abcd", nonce: "n-0S6_WzA2Mj", fullName: nil, app: "demo")
        #expect(native.user.id == web.id)
        #expect(try await users.user(.provider("apple", subject: "cognito-sub-1"))?.id == web.id)
        let linked = try #require(try await users.user(id: web.id))
        #expect(Set(linked.providers.values) == ["cognito-sub-1", "001234.abcd"])
        #expect(try await users.delete(id: web.id))
        #expect(try await fixture.store.scan("UserIndex", limit: nil).isEmpty)
    }

    @Test(
        arguments: [
            (["aud": "com.other.app"], "001234.abcd", "n-0S6_WzA2Mj", "wrong_audience"),
            (["iss": "https://evil.example"], "001234.abcd", "n-0S6_WzA2Mj", "wrong_issuer"),
            (["exp": .number(SessionFixtures.start - 120)], "001234.abcd", "n-0S6_WzA2Mj", "expired"),
            ([:], "someone-else", "n-0S6_WzA2Mj", "user_mismatch"),
            ([:], "001234.abcd", "another-nonce", "nonce_mismatch"),
            (["iat": .null], "001234.abcd", "n-0S6_WzA2Mj", "missing_iat"),
        ] as [([String: JSONValue], String, String, String)])
    func badTokensAreRefusedWithTheirReason(
        changes: [String: JSONValue], user: String, nonce: String, reason: String
    )
        async throws
    {
        let fixture = try await Fixture()
        await #expect(throws: SignInError.tokenRefused(reason)) {
            try await fixture.verifier.verify(try fixture.token(changes), user: user, nonce: nonce)
        }
    }

    /// A token from a key Apple does not publish: its `kid` is unknown, and with Apple's `kid`
    /// its signature fails.
    @Test func tokensFromAnotherKeyAreRefused() async throws {
        let fixture = try await Fixture()
        let unknownKid = try fixture.token(key: Self.stranger)
        await #expect(throws: SignInError.self) {
            try await fixture.verifier.verify(unknownKid, user: "001234.abcd", nonce: nil)
        }
        // The stranger's signature under Apple's kid.
        let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"\#(Self.apple.kid)"}"#.utf8))
        let signingInput = "\(header).\(unknownKid.split(separator: ".")[1])"
        let relabelled = "\(signingInput).\(Base64URL.encode(try Self.stranger.signRS256(Array(signingInput.utf8))))"
        await #expect(throws: SignInError.self) {
            try await fixture.verifier.verify(relabelled, user: "001234.abcd", nonce: nil)
        }
    }

    @Test func settingsNeedClientIDs() throws {
        #expect(throws: SettingsError.missing("APPLE_CLIENT_IDS")) { try AppleSettings(environment: [:]) }
        let settings = try AppleSettings(environment: ["APPLE_CLIENT_IDS": "com.a, com.b"])
        #expect(settings.clientIDs == ["com.a", "com.b"])
        #expect(settings.jwksURL == "https://appleid.apple.com/auth/keys")
        #expect(settings.fetchTimeout == 3)
        let patient = try AppleSettings(environment: ["APPLE_CLIENT_IDS": "com.a", "JWKS_FETCH_TIMEOUT_SECONDS": "8"])
        #expect(patient.fetchTimeout == 8)
        #expect(throws: SettingsError.invalid("JWKS_FETCH_TIMEOUT_SECONDS", "must be at least 1 second")) {
            try AppleSettings(environment: ["APPLE_CLIENT_IDS": "com.a", "JWKS_FETCH_TIMEOUT_SECONDS": "0"])
        }
    }
}
