import AuthKit
import GatehouseJSON
import JOSE
import Store
import Testing

/// S2S assertions: an app's backend proves who it is, for one body, once.
struct S2SVerifierTests {
    static let issuer = "http://127.0.0.1:3000"
    static let rsaKey = try! RSASigningKey.generate()
    static let otherKey = P256SigningKey()

    struct Setup {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let verifier: S2SVerifier
        let body = Array(#"{"app":"acme","code":"abc"}"#.utf8)

        init() async throws {
            store = try SessionFixtures.store(clock: clock)
            verifier = S2SVerifier(store: store, clock: clock, audience: S2SVerifierTests.issuer)
            let apps = AppRegistry(store: store)
            try await apps.add(
                App(id: "acme", name: "Acme", baseURL: nil, mobileScheme: nil, publicKeys: [rsaKey.publicJWK]))
            try await apps.add(
                App(id: "other", name: "Other", baseURL: nil, mobileScheme: nil, publicKeys: [otherKey.publicJWK]))
            try await apps.add(App(id: "keyless", name: "Keyless", baseURL: nil, mobileScheme: nil, publicKeys: []))
        }

        /// The claims a correct assertion of `acme` for `body` carries, issued now.
        func claims(jti: String = "jti-1") -> [String: JSONValue] {
            [
                "iss": "acme", "sub": "acme", "aud": .string(S2SVerifierTests.issuer),
                "iat": .number(clock.now), "exp": .number(clock.now + 60), "jti": .string(jti),
                "body_sha256": .string(SHA256Hex.of(body)),
            ]
        }

        func verify(
            _ token: String, body: [UInt8]? = nil, header: String?? = .none
        ) async throws -> S2SAssertion {
            let sent = body ?? self.body
            let contentHash: String? = header ?? SHA256Hex.of(sent)
            return try await verifier.verify(
                authorization: "Bearer \(token)", contentSHA256: contentHash, body: sent)
        }

        func usedCount() async throws -> Int {
            try await store.scan(S2SVerifier.table, limit: nil).count
        }
    }

    @Test func aValidAssertionVerifiesWithoutWritingAndIsSpentOnce() async throws {
        let setup = try await Setup()
        let token = try JWS.signJWT(claims: setup.claims(), with: Self.rsaKey)
        let assertion = try await setup.verify(token)
        #expect(assertion.app == "acme")
        #expect(assertion.jti == "jti-1")
        #expect(assertion.expiresAt == SessionFixtures.start + 60)
        #expect(try await setup.usedCount() == 0)

        try await setup.verifier.redeem(assertion)
        #expect(try await setup.usedCount() == 1)
        // The same token again, and another token with the same jti: both replays.
        let again = try await setup.verify(token)
        await #expect(throws: S2SError.replayed) { try await setup.verifier.redeem(again) }
        var resigned = setup.claims()
        resigned["iat"] = .number(SessionFixtures.start + 1)
        let twin = try await setup.verify(try JWS.signJWT(claims: resigned, with: Self.rsaKey))
        await #expect(throws: S2SError.replayed) { try await setup.verifier.redeem(twin) }
    }

    /// The jti is remembered for as long as the assertion could pass: up to `exp` plus the skew.
    /// An app whose codes are redeemed only publicly: its backend, though authenticated, is
    /// refused with `redeem_not_allowed`, and the code is left for the public exchange.
    @Test func aBackendIsRefusedForAnAppThatRedeemsOnlyPublicly() async throws {
        let setup = try await Setup()
        try await AppRegistry(store: setup.store).add(
            App(
                id: "web", name: "Web", baseURL: nil, mobileScheme: nil, publicKeys: [Self.rsaKey.publicJWK],
                redeem: [.public]))
        let user = try await UserDirectory(store: setup.store, clock: setup.clock).findOrCreate(
            email: try #require(EmailAddress("ada@example.com"))
        ).user
        let code = try await AuthCodes(store: setup.store, clock: setup.clock).mint(
            app: "web", user: user, provider: "email", isNewUser: false)
        var claims = setup.claims()
        claims["iss"] = "web"
        claims["sub"] = "web"
        let assertion = try await setup.verify(try JWS.signJWT(claims: claims, with: Self.rsaKey))
        #expect(assertion.redeem == [.public])
        let verification = CodeVerification(store: setup.store, clock: setup.clock, issuer: Self.issuer)
        await #expect(throws: SessionError.notRedeemableHere) {
            try await verification.verify(code: code, app: "web", assertion: assertion)
        }
        #expect(SessionError.notRedeemableHere.code == "redeem_not_allowed")
        #expect(try await setup.store.scan(AuthCodes.table, limit: nil).count == 1)
    }

    /// A code minted on a second factor (a passkey, the hosted page's code step) is redeemed by
    /// the backend only while that factor holds, as `/auth/exchange` redeems it: one removed
    /// since is refused, and the code spent.
    @Test(arguments: [SecondFactorProof.passkeyMethod, "totp"])
    func aCodeWhoseSecondFactorWentSinceIsRefused(_ method: String) async throws {
        let setup = try await Setup()
        let user = try await UserDirectory(store: setup.store, clock: setup.clock).findOrCreate(
            email: try #require(EmailAddress("ada@example.com"))
        ).user
        let (code, mint) = AuthCodes(store: setup.store, clock: setup.clock).minting(
            app: "acme", user: user, provider: "passkey", isNewUser: false, codeChallenge: nil,
            secondFactor: SecondFactorProof(method: method, factorID: "removed-since"))
        try await setup.store.transactWrite([mint])
        let verification = CodeVerification(store: setup.store, clock: setup.clock, issuer: Self.issuer)
        let assertion = try await setup.verify(try JWS.signJWT(claims: setup.claims(), with: Self.rsaKey))
        await #expect(throws: SessionError.invalidCode) {
            try await verification.verify(code: code, app: "acme", assertion: assertion)
        }
        #expect(try await setup.store.scan(AuthCodes.table, limit: nil).isEmpty, "the refused code is spent")
    }

    /// A code bound to a PKCE challenge is redeemed by the backend as `/auth/exchange` redeems
    /// it: only with its verifier. Without one it is refused, and spent.
    @Test func aBoundCodeIsRefusedWithoutItsVerifierAndSpent() async throws {
        let setup = try await Setup()
        let user = try await UserDirectory(store: setup.store, clock: setup.clock).findOrCreate(
            email: try #require(EmailAddress("ada@example.com"))
        ).user
        let verifier = String(repeating: "v", count: 43)
        let code = try await AuthCodes(store: setup.store, clock: setup.clock).mint(
            app: "acme", user: user, provider: "email", isNewUser: false,
            codeChallenge: PKCE.challenge(for: verifier))
        let verification = CodeVerification(store: setup.store, clock: setup.clock, issuer: Self.issuer)
        let assertion = try await setup.verify(try JWS.signJWT(claims: setup.claims(), with: Self.rsaKey))
        await #expect(throws: SessionError.invalidCode) {
            try await verification.verify(code: code, app: "acme", assertion: assertion)
        }
        #expect(try await setup.store.scan(AuthCodes.table, limit: nil).isEmpty, "the refused code is spent")

        // Another verifier: refused and spent too; its own verifier redeems a fresh one.
        let codes = AuthCodes(store: setup.store, clock: setup.clock)
        let wrong = try await codes.mint(
            app: "acme", user: user, provider: "email", isNewUser: false, codeChallenge: PKCE.challenge(for: verifier))
        let second = try await setup.verify(try JWS.signJWT(claims: setup.claims(jti: "jti-2"), with: Self.rsaKey))
        await #expect(throws: SessionError.invalidCode) {
            try await verification.verify(
                code: wrong, app: "acme", codeVerifier: String(repeating: "w", count: 43), assertion: second)
        }
        #expect(try await setup.store.scan(AuthCodes.table, limit: nil).isEmpty)
        let right = try await codes.mint(
            app: "acme", user: user, provider: "email", isNewUser: false, codeChallenge: PKCE.challenge(for: verifier))
        let third = try await setup.verify(try JWS.signJWT(claims: setup.claims(jti: "jti-3"), with: Self.rsaKey))
        let result = try await verification.verify(code: right, app: "acme", codeVerifier: verifier, assertion: third)
        #expect(result.userID == user.id)
    }

    @Test func theJTIIsRememberedUntilTheAssertionCanNoLongerPass() async throws {
        let setup = try await Setup()
        let token = try JWS.signJWT(claims: setup.claims(), with: Self.rsaKey)
        try await setup.verifier.redeem(try await setup.verify(token))
        setup.clock.set(SessionFixtures.start + 60 + S2SVerifier.clockSkew - 0.5)
        let late = try await setup.verify(token)
        await #expect(throws: S2SError.replayed) { try await setup.verifier.redeem(late) }
        setup.clock.set(SessionFixtures.start + 60 + S2SVerifier.clockSkew)
        await #expect(throws: S2SError.invalidAssertion("the token has expired")) { try await setup.verify(token) }
    }

    /// One app's jti says nothing about another's.
    @Test func jtisArePerApp() async throws {
        let setup = try await Setup()
        try await setup.verifier.redeem(try await setup.verify(JWS.signJWT(claims: setup.claims(), with: Self.rsaKey)))
        var other = setup.claims()
        other["iss"] = "other"
        other["sub"] = "other"
        try await setup.verifier.redeem(try await setup.verify(JWS.signJWT(claims: other, with: Self.otherKey)))
        #expect(try await setup.usedCount() == 2)
    }

    /// Each way to get an assertion wrong, and the reason it is refused for.
    @Test(
        arguments: [
            ("expired", ["iat": -120, "exp": -60], S2SError.invalidAssertion("the token has expired")),
            (
                "issued in the future", ["iat": 30, "exp": 60],
                .invalidAssertion("the token was issued in the future (iat)")
            ),
            ("lives too long", ["exp": 61], .invalidAssertion("exp must be after iat and at most 60 s later")),
            ("exp before iat", ["exp": -1], .invalidAssertion("exp must be after iat and at most 60 s later")),
        ] as [(String, [String: Double], S2SError)])
    func badTimesAreRefused(_ case: String, offsets: [String: Double], error: S2SError) async throws {
        let setup = try await Setup()
        var claims = setup.claims()
        for (name, offset) in offsets { claims[name] = .number(SessionFixtures.start + offset) }
        let token = try JWS.signJWT(claims: claims, with: Self.rsaKey)
        await #expect(throws: error, "\(`case`)") { try await setup.verify(token) }
    }

    @Test(
        arguments: [
            (
                "wrong aud", "aud", JSONValue.string("https://elsewhere.example"),
                S2SError.invalidAssertion("the token is not for this audience")
            ),
            ("sub differs", "sub", "someone", .invalidAssertion("sub must equal iss")),
            ("no jti", "jti", nil, .invalidAssertion("jti must be a string of 1 to 128 bytes")),
            (
                "jti too long", "jti", .string(String(repeating: "j", count: 129)),
                .invalidAssertion("jti must be a string of 1 to 128 bytes")
            ),
            ("no iat", "iat", nil, .invalidAssertion("iat is required")),
            (
                "no body hash", "body_sha256", nil,
                .invalidAssertion("body_sha256 must be the body's SHA-256 in lower-case hex")
            ),
            ("unknown app", "iss", "nope", .unknownApp),
            ("app without keys", "iss", "keyless", .noPublicKey),
        ] as [(String, String, JSONValue?, S2SError)])
    func badClaimsAreRefused(_ case: String, claim: String, value: JSONValue?, error: S2SError) async throws {
        let setup = try await Setup()
        var claims = setup.claims()
        claims[claim] = value
        let token = try JWS.signJWT(claims: claims, with: Self.rsaKey)
        await #expect(throws: error, "\(`case`)") { try await setup.verify(token) }
        #expect(try await setup.usedCount() == 0)
    }

    /// Signed with the key of another registered app, or claiming another app.
    @Test func anotherAppsKeyIsRefused() async throws {
        let setup = try await Setup()
        let token = try JWS.signJWT(claims: setup.claims(), with: Self.otherKey)
        await #expect(throws: S2SError.invalidAssertion("no key with kid \(Self.otherKey.kid)")) {
            try await setup.verify(token)
        }
        var posing = setup.claims()
        posing["iss"] = "other"
        posing["sub"] = "other"
        let forged = try JWS.signJWT(claims: posing, with: Self.rsaKey)
        await #expect(throws: S2SError.invalidAssertion("no key with kid \(Self.rsaKey.kid)")) {
            try await setup.verify(forged)
        }
    }

    @Test func theBodyAndItsHeaderMustBeTheSignedOnes() async throws {
        let setup = try await Setup()
        let token = try JWS.signJWT(claims: setup.claims(), with: Self.rsaKey)
        let changed = Array(#"{"app":"acme","code":"abd"}"#.utf8)
        await #expect(
            throws: S2SError.bodyHashMismatch("The body is not the one the assertion was signed for (body_sha256).")
        ) { try await setup.verify(token, body: changed) }
        await #expect(
            throws: S2SError.bodyHashMismatch("The x-amz-content-sha256 header is not the SHA-256 of the body.")
        ) { try await setup.verify(token, header: .some(SHA256Hex.of(changed))) }
        await #expect(throws: S2SError.bodyHashMismatch("The x-amz-content-sha256 header is missing.")) {
            try await setup.verify(token, header: .some(nil))
        }
        // Hex digits in upper case name the same hash.
        _ = try await setup.verify(token, header: .some(SHA256Hex.of(setup.body).uppercased()))
    }

    @Test(arguments: [nil, "", "Bearer", "Bearer ", "Basic YWNtZTpzZWNyZXQ=", "bearer"])
    func noBearerAssertionIsMissing(_ header: String?) async throws {
        let setup = try await Setup()
        await #expect(throws: S2SError.missingAssertion) {
            try await setup.verifier.verify(authorization: header, contentSHA256: nil, body: setup.body)
        }
    }

    @Test func theSchemeIsCaseInsensitiveAndGarbageIsInvalid() async throws {
        let setup = try await Setup()
        let token = try JWS.signJWT(claims: setup.claims(), with: Self.rsaKey)
        _ = try await setup.verifier.verify(
            authorization: "bearer \(token)", contentSHA256: SHA256Hex.of(setup.body), body: setup.body)
        await #expect(throws: S2SError.invalidAssertion("malformed token: \(JWTMalformation.segments)")) {
            try await setup.verify("not-a-jwt")
        }
        // HS256 with the public key as the secret (the classic confusion) is never allowed.
        let forged =
            Base64URL.encode(#"{"alg":"HS256","typ":"JWT"}"#.utf8) + "."
            + Base64URL.encode(JSONValue.object(setup.claims()).serialized.utf8) + ".c2ln"
        await #expect(throws: S2SError.invalidAssertion("algorithm HS256 is not allowed")) {
            try await setup.verify(forged)
        }
    }

    /// What `gatehouse s2s sign` makes passes, with RSA and P-256 keys read from PEM.
    @Test func theSignerMakesAssertionsThatVerify() async throws {
        let setup = try await Setup()
        let token = try S2SAssertionSigner.sign(
            app: "acme", audience: Self.issuer, body: setup.body, key: Self.rsaKey, now: setup.clock.now)
        let assertion = try await setup.verify(token)
        #expect(assertion.app == "acme")
        #expect(assertion.expiresAt == SessionFixtures.start + 60)
        #expect(assertion.jti.utf8.count == 22)
        #expect(throws: AppError.self) { try S2SAssertionSigner.privateKey(pem: "-----BEGIN PUBLIC KEY-----") }
    }
}
