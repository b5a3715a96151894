import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import Store
import StoreCore
import Testing

/// What a verified second factor guards: a new password, address or number and the account's
/// deletion need a session that verified it (`aal2`); and the authorizer with
/// `JWT_REQUIRED_AAL=aal2` lets only such sessions through.
struct FactorStepUpTests {
    /// A user with a verified factor: its raised session (`aal2`) and a later sign-in (`aal1`).
    struct Enrolled {
        let fixture: FactorsFixture
        let raised: SessionResponse
        let plain: (session: SessionResponse, bearer: AccessTokens.Bearer)

        init() async throws {
            fixture = try await FactorsFixture()
            let first = try await fixture.signIn()
            let (factor, secret) = try await fixture.enroll(first.bearer)
            raised = try await fixture.verify(factor, code: fixture.code(secret), bearer: first.bearer)
            plain = try await fixture.signIn()
        }

        var accounts: PasswordAccounts {
            let links = EmailTokens(
                store: fixture.store, clock: fixture.clock,
                sender: OutboxSender(store: fixture.store, clock: fixture.clock),
                issuer: "http://127.0.0.1:3000", secret: try! OTPSecret(bytes: Array(repeating: 7, count: 32)))
            return PasswordAccounts(
                sessions: fixture.sessions, store: fixture.store, clock: fixture.clock, links: links,
                hasher: PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1)))
        }

        func sessionID(_ session: SessionResponse) throws -> String {
            try #require(try fixture.claims(session.accessToken)["session_id"]?.stringValue)
        }
    }

    @Test func aNewPasswordAddressOrNumberNeedsAnAAL2SessionOnceAFactorIsVerified() async throws {
        let enrolled = try await Enrolled()
        let accounts = enrolled.accounts
        let user = enrolled.fixture.user
        let refusals: [AccountChanges] = [
            AccountChanges(password: "a new horse battery staple"),
            AccountChanges(email: "grace@example.com"),
            AccountChanges(phone: try #require(PhoneNumber("+14155550123"))),
        ]
        for changes in refusals {
            await #expect(throws: AccountError.secondFactorNeeded) {
                _ = try await accounts.update(
                    changes, to: user, for: enrolled.plain.bearer, redirectTo: nil, sourceIP: "203.0.113.9")
            }
        }
        #expect(try await enrolled.fixture.sessions.users.user(id: user.id) == user)
        // What a factor does not guard: the metadata, the user's own address.
        let renamed = try await accounts.update(
            AccountChanges(metadata: ["name": "Ada"], email: user.email), to: user, for: enrolled.plain.bearer,
            redirectTo: nil, sourceIP: nil)
        #expect(renamed.metadata["name"] == "Ada")
        // The session that verified the factor changes the password (it is recent).
        let raisedBearer = try await enrolled.fixture.bearer(enrolled.raised.accessToken)
        #expect(raisedBearer.sessionAAL == "aal2")
        _ = try await accounts.update(
            AccountChanges(password: "a new horse battery staple"), to: renamed, for: raisedBearer, redirectTo: nil,
            sourceIP: nil)
        #expect(try await PasswordCredentials.hash(userID: user.id, in: enrolled.fixture.store) != nil)
    }

    @Test func anAccountWithAFactorIsDeletedOnlyFromAnAAL2Session() async throws {
        let enrolled = try await Enrolled()
        let fixture = enrolled.fixture
        let accounts = Accounts(store: fixture.store, clock: fixture.clock)
        let nonces = ReauthenticationNonces(
            store: fixture.store, clock: fixture.clock, secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)))
        await #expect(throws: AccountError.secondFactorNeeded) {
            try await accounts.delete(
                userID: fixture.user.id, fromSession: try enrolled.sessionID(enrolled.plain.session),
                tokenAAL: "aal1", recentWithin: 3600)
        }
        // With a nonce too, refused before the nonce is looked at (a wrong one would say so).
        await #expect(throws: AccountError.secondFactorNeeded) {
            try await accounts.delete(
                userID: fixture.user.id, fromSession: try enrolled.sessionID(enrolled.plain.session),
                tokenAAL: "aal1", recentWithin: 3600,
                nonce: "123456", checkedBy: nonces, sourceIP: "203.0.113.9")
        }
        #expect(try await fixture.sessions.users.user(id: fixture.user.id) != nil)
        #expect(try await Factors.list(userID: fixture.user.id, in: fixture.store).count == 1)
        try await accounts.delete(
            userID: fixture.user.id, fromSession: try enrolled.sessionID(enrolled.raised), tokenAAL: "aal2",
            recentWithin: 3600)
        #expect(try await fixture.sessions.users.user(id: fixture.user.id) == nil)
    }

    @Test func aTokenIssuedBeforeItsSessionWasRaisedStaysAAL1() async throws {
        let fixture = try await FactorsFixture()
        let first = try await fixture.signIn()
        let (factor, secret) = try await fixture.enroll(first.bearer)
        let raised = try await fixture.verify(factor, code: fixture.code(secret), bearer: first.bearer)
        // The same session, its row at aal2; the copy of its first access token is still aal1.
        let stale = try await fixture.bearer(first.session.accessToken)
        #expect(stale.sessionID == (try await fixture.bearer(raised.accessToken)).sessionID)
        #expect(stale.sessionAAL == "aal1" && stale.tokenAAL == "aal1")
        let links = EmailTokens(
            store: fixture.store, clock: fixture.clock,
            sender: OutboxSender(store: fixture.store, clock: fixture.clock),
            issuer: "http://127.0.0.1:3000", secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)))
        let accounts = PasswordAccounts(
            sessions: fixture.sessions, store: fixture.store, clock: fixture.clock, links: links,
            hasher: PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1)))
        await #expect(throws: AccountError.secondFactorNeeded) {
            _ = try await accounts.update(
                AccountChanges(password: "a new horse battery staple"), to: fixture.user, for: stale, redirectTo: nil,
                sourceIP: nil)
        }
        await #expect(throws: FactorError.insufficientAAL(enrolling: false)) {
            try await fixture.factors.unenroll(factor.id, bearer: stale)
        }
        await #expect(throws: AccountError.secondFactorNeeded) {
            try await Accounts(store: fixture.store, clock: fixture.clock).delete(
                userID: fixture.user.id, fromSession: stale.sessionID, tokenAAL: "aal1", recentWithin: 3600)
        }
        #expect(try await fixture.sessions.users.user(id: fixture.user.id) != nil)
    }

    @Test func linkingOrUnlinkingAnIdentityNeedsTheFactorToo() async throws {
        let enrolled = try await Enrolled()
        let links = IdentityLinks(
            sessions: enrolled.fixture.sessions, reauthentication: enrolled.accounts.reauthentication)
        await #expect(throws: AccountError.secondFactorNeeded) {
            try await links.unlink(
                "email", of: enrolled.fixture.user, for: enrolled.plain.bearer, sourceIP: "203.0.113.9")
        }
        await #expect(throws: AccountError.secondFactorNeeded) {
            _ = try await links.link(
                for: enrolled.plain.bearer, app: "demo", provider: "apple", sourceIP: "203.0.113.9"
            ) {
                Issue.record("the identity was checked before the session's level")
                throw AccountError.identityNotFound
            }
        }
    }

    @Test func anotherIssuersTokenNeverPassesTheAAL2Authorizer() async throws {
        let trusted = TrustedIssuer(issuer: TrustedIssuerTests.pool, clients: ["app-client-1"], tokenUse: nil)
        let poolKeys = JWKSCache(url: trusted.jwksURL, fetcher: ServedJWKS([TrustedIssuerTests.cognito.publicJWK]))
        let ownKeys = JWKSCache(
            url: "http://127.0.0.1:3000/.well-known/jwks.json",
            fetcher: ServedJWKS(jwks: TrustedIssuerTests.own.publicJWKS))
        try await poolKeys.hydrate()
        try await ownKeys.hydrate()
        let authorizer = AccessTokenAuthorizer(
            verifier: JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"]), keys: ownKeys,
            issuers: [TrustedIssuerKeys(issuer: trusted, keys: poolKeys)], requiredAAL: "aal2",
            now: { TrustedIssuerTests.now })
        // Even one whose own claims say aal2: a hook or a claim mapper may set them.
        let token = try TrustedIssuerTests.token(["aal": "aal2"])
        #expect(await authorizer.decide(authorization: "Bearer \(token)").reason == "aal2_required")
    }

    @Test func aUserWithoutAFactorChangesAndDeletesFromAnAAL1Session() async throws {
        let fixture = try await FactorsFixture()
        let (session, bearer) = try await fixture.signIn()
        // An unverified factor guards nothing yet.
        _ = try await fixture.enroll(bearer)
        #expect(bearer.sessionAAL == "aal1")
        try await Factors.requireSecondFactor(userID: fixture.user.id, sessionAAL: "aal1", in: fixture.store)
        let sessionID = try #require(try fixture.claims(session.accessToken)["session_id"]?.stringValue)
        try await Accounts(store: fixture.store, clock: fixture.clock).delete(
            userID: fixture.user.id, fromSession: sessionID, tokenAAL: "aal1", recentWithin: 3600)
        #expect(try await fixture.sessions.users.user(id: fixture.user.id) == nil)
    }

    @Test func theAAL2AuthorizerPassesOnlyRaisedSessionsAndReadsTheirRow() async throws {
        let enrolled = try await Enrolled()
        let fixture = enrolled.fixture
        let keys = JWKSCache(
            url: "http://127.0.0.1:3000/.well-known/jwks.json", fetcher: ServedJWKS(jwks: fixture.keys.publicJWKS))
        try await keys.hydrate()
        let now = fixture.clock.now
        func authorizer(_ requiredAAL: String?) -> AccessTokenAuthorizer {
            AccessTokenAuthorizer(
                verifier: JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"]), keys: keys,
                sessions: SessionCheck(store: fixture.store, cacheSeconds: 0), requiredAAL: requiredAAL,
                now: { now })
        }
        let any = authorizer(nil)
        let aal2 = authorizer("aal2")
        let plain = "Bearer \(enrolled.plain.session.accessToken)"
        let raised = "Bearer \(enrolled.raised.accessToken)"
        guard case .allow(_, let context, _) = await any.decide(authorization: plain) else {
            Issue.record("an aal1 session is refused without a required level")
            return
        }
        #expect(context["aal"] == "aal1")
        #expect(await aal2.decide(authorization: plain).reason == "aal2_required")
        guard case .allow(_, let raisedContext, _) = await aal2.decide(authorization: raised) else {
            Issue.record("the raised session is refused")
            return
        }
        #expect(raisedContext["aal"] == "aal2")
        // The factor removed: its session's row is lowered, and its still-unexpired aal2 token
        // no longer passes.
        let raisedBearer = try await fixture.bearer(enrolled.raised.accessToken)
        let factor = try #require(try await fixture.factors.list(userID: fixture.user.id).first)
        try await fixture.factors.unenroll(factor.id, bearer: raisedBearer)
        #expect(await aal2.decide(authorization: raised).reason == "aal2_required")
        guard case .allow(_, let lowered, _) = await any.decide(authorization: raised) else {
            Issue.record("the lowered session is refused without a required level")
            return
        }
        // The context says the level the request holds, not the one its token was issued with.
        #expect(lowered["aal"] == "aal1")
    }

    @Test func aSessionRaisedAMomentAgoPassesThoughItsAAL1WasRemembered() async throws {
        let fixture = try await FactorsFixture()
        let keys = JWKSCache(
            url: "http://127.0.0.1:3000/.well-known/jwks.json", fetcher: ServedJWKS(jwks: fixture.keys.publicJWKS))
        try await keys.hydrate()
        let now = fixture.clock.now
        let aal2 = AccessTokenAuthorizer(
            verifier: JWTVerifier(issuer: "http://127.0.0.1:3000", audiences: ["demo"]), keys: keys,
            sessions: SessionCheck(store: fixture.store, cacheSeconds: 30, uptime: { 100 }), requiredAAL: "aal2",
            now: { now })
        let (session, bearer) = try await fixture.signIn()
        #expect(await aal2.decide(authorization: "Bearer \(session.accessToken)").reason == "aal2_required")
        let (factor, secret) = try await fixture.enroll(bearer)
        let raised = try await fixture.verify(factor, code: fixture.code(secret), bearer: bearer)
        #expect(await aal2.decide(authorization: "Bearer \(raised.accessToken)").reason == "ok")
    }

    @Test func theRequiredLevelIsAal1OrAal2() throws {
        let base = ["ISSUER": "http://127.0.0.1:3000", "JWT_AUDIENCE": "demo"]
        #expect(try AuthorizerSettings(environment: base).requiredAAL == nil)
        #expect(
            try AuthorizerSettings(environment: base.merging(["JWT_REQUIRED_AAL": "AAL2"]) { $1 }).requiredAAL == "aal2"
        )
        #expect(throws: SettingsError.self) {
            try AuthorizerSettings(environment: base.merging(["JWT_REQUIRED_AAL": "aal3"]) { $1 })
        }
        // A session's level is its row's: aal2 without the session check would trust the claim.
        #expect(throws: SettingsError.self) {
            try AuthorizerSettings(
                environment: base.merging(["JWT_REQUIRED_AAL": "aal2", "AUTHORIZER_CHECK_SESSION": "false"]) { $1 })
        }
    }
}
