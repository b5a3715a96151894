import AuthKit
import Foundation
import GatehouseJSON
import JOSE
import Store
import Synchronization
import Testing

/// A function the test answers for: each payload it was given, and `answer`'s result.
final class FakeHookFunction: FunctionInvoker {
    private let payloads = Mutex<[JSONValue]>([])
    let answer: @Sendable (JSONValue) throws -> [UInt8]

    init(answer: @escaping @Sendable (JSONValue) throws -> [UInt8]) {
        self.answer = answer
    }

    /// A hook that returns the claims it was given, changed by `change`.
    convenience init(changing change: @escaping @Sendable (inout [String: JSONValue]) -> Void) {
        self.init { payload in
            var claims = payload["claims"]?.objectValue ?? [:]
            change(&claims)
            return JSONValue.object(["claims": .object(claims)]).serializedBytes
        }
    }

    var received: [JSONValue] { payloads.withLock { $0 } }

    func invoke(_ function: String, payload: [UInt8]) async throws -> [UInt8] {
        let event = try JSONValue(parsing: payload)
        payloads.withLock { $0.append(event) }
        return try answer(event)
    }
}

/// The access-token hook (`AccessTokenHook`): Supabase's payload and answer, the claims it may
/// and may not change, and every way it fails, each failing the sign-in closed.
struct AccessTokenHookTests {
    static let keys = Result { try SigningKeySet.generate() }
    static let issuer = "http://127.0.0.1:3000"

    /// Claims as `AccessTokens` makes them, for the hook's checks alone.
    static let made: [String: JSONValue] = [
        "iss": .string(issuer), "aud": "demo", "sub": "user-1", "sid": "s-1", "session_id": "s-1",
        "iat": 1_800_000_000, "exp": 1_800_000_300, "jti": "j-1", "aal": "aal1",
        "amr": [["method": "otp", "timestamp": 1_800_000_000]], "is_anonymous": false, "role": "authenticated",
        "email": "ada@example.com", "app_metadata": [:], "user_metadata": [:],
        "data": ["userId": "user-1", "provider": "email"],
    ]

    /// A signed-in user's code, the service with `hook`, and its store.
    func signIn(hook: FakeHookFunction) async throws -> (SessionService, String, SQLiteStore) {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        let service = SessionService(
            store: store, clock: clock, settings: SessionSettings(issuer: Self.issuer), keys: try Self.keys.get(),
            hook: AccessTokenHook(function: "TokenHook", invoker: hook))
        let (user, isNew) = try await service.users.findOrCreate(
            email: try #require(EmailAddress("ada@example.com")), name: "Ada")
        try await AppRegistry(store: store).ensureDemoApp()
        let code = try await service.codes.mint(app: "demo", user: user, provider: "email", isNewUser: isNew)
        return (service, code, store)
    }

    func verified(_ token: String) throws -> [String: JSONValue] {
        let verifier = JWTVerifier(issuer: Self.issuer, audiences: ["demo"])
        let published = VerificationKeySet(jwks: try Self.keys.get().publicJWKS.keys)
        return try verifier.verify(token, keys: published, now: SessionFixtures.start).claims.dictionary
    }

    @Test func theHooksClaimsAreSignedAndItIsToldHowTheUserSignedIn() async throws {
        let hook = FakeHookFunction { claims in
            claims["tier"] = "gold"
            claims["role"] = "premium"
            claims["user_metadata"] = nil
        }
        let (service, code, _) = try await signIn(hook: hook)
        let session = try await service.exchange(code: code, app: "demo")
        let claims = try verified(session.accessToken)
        #expect(claims["tier"] == "gold" && claims["role"] == "premium" && claims["user_metadata"] == nil)
        #expect(claims["aud"] == "demo" && claims["sid"] != nil && claims["sub"] == .string(session.user.id))
        let sent = try #require(hook.received.first)
        #expect(sent["user_id"] == .string(session.user.id))
        #expect(sent["authentication_method"] == "otp", "an emailed link's session, in Supabase's words")
        #expect(sent["claims"]?["sid"] == claims["sid"] && sent["claims"]?["tier"] == nil)
        // A refresh tells it so, and its claims are used again.
        let refreshed = try await service.refresh(token: session.refreshToken)
        #expect(try verified(refreshed.accessToken)["tier"] == "gold")
        #expect(hook.received.last?["authentication_method"] == "token_refresh")
    }

    @Test func aFailingHookFailsTheSignInClosed() async throws {
        let hook = FakeHookFunction { _ in throw FunctionInvocationError.functionFailed(type: "Unhandled") }
        let (service, code, _) = try await signIn(hook: hook)
        await #expect(throws: AccessTokenHookError.invocationFailed("function error Unhandled")) {
            _ = try await service.exchange(code: code, app: "demo")
        }
        #expect(hook.received.count == 1)
    }

    /// A hook that fails during a refresh leaves the refresh token unused: the client's retry
    /// works once the hook does, however late (before the hook ran first, the rotation was
    /// written, a retry past the reuse grace was taken for a stolen token, and the session ended).
    @Test func aHookThatFailsARefreshLeavesItsTokenUsable() async throws {
        let failing = Mutex(false)
        let hook = FakeHookFunction { payload in
            if failing.withLock({ $0 }) { throw FunctionInvocationError.functionFailed(type: "Unhandled") }
            return JSONValue.object(["claims": payload["claims"] ?? [:]]).serializedBytes
        }
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        let service = SessionService(
            store: store, clock: clock, settings: SessionSettings(issuer: Self.issuer), keys: try Self.keys.get(),
            hook: AccessTokenHook(function: "TokenHook", invoker: hook))
        let (user, _) = try await service.users.findOrCreate(email: try #require(EmailAddress("ada@example.com")))
        try await AppRegistry(store: store).ensureDemoApp()
        let session = try await service.exchange(
            code: try await service.codes.mint(app: "demo", user: user, provider: "email", isNewUser: false),
            app: "demo")
        failing.withLock { $0 = true }
        for _ in 0..<2 {
            await #expect(throws: AccessTokenHookError.self) {
                _ = try await service.refresh(token: session.refreshToken)
            }
            clock.set(clock.now + 60)
        }
        failing.withLock { $0 = false }
        let refreshed = try await service.refresh(token: session.refreshToken)
        #expect(!refreshed.accessToken.isEmpty && refreshed.refreshToken != session.refreshToken)
        #expect(hook.received.count == 4, "the sign-in, two failed refreshes, the one that worked")
    }

    /// The claims that say whose token it is, for which app and session, for how long and how the
    /// user proved it (named here, not read from `AccessTokenHook.reserved`, so dropping one fails).
    static let reservedClaims = [
        "iss", "aud", "sub", "exp", "iat", "nbf", "jti", "sid", "session_id", "aal", "amr", "is_anonymous", "data",
        "scope", "scp",
    ]

    @Test func theReservedClaimsAreTheTokensIdentity() {
        #expect(AccessTokenHook.reserved == Set(Self.reservedClaims))
    }

    @Test(arguments: reservedClaims)
    func aReservedClaimCannotBeChangedRemovedOrAdded(_ name: String) async throws {
        let changes: [@Sendable (inout [String: JSONValue]) -> Void] = [
            { $0[name] = "changed" }, { $0[name] = nil }, { $0[name] = .array([$0[name] ?? .null]) },
        ]
        for change in changes {
            var probe = Self.made
            change(&probe)
            // Removing `nbf`, which Gatehouse never makes, changes nothing.
            guard probe[name] != Self.made[name] else { continue }
            let hook = AccessTokenHook(function: "TokenHook", invoker: FakeHookFunction(changing: change))
            await #expect(throws: AccessTokenHookError.reservedClaim(name)) {
                _ = try await hook.claims(for: Self.made, userID: "user-1", authenticationMethod: "otp")
            }
        }
    }

    @Test func unchangedReservedClaimsAndNewOnesPass() async throws {
        let hook = AccessTokenHook(
            function: "TokenHook", invoker: FakeHookFunction { $0["groups"] = ["admins"] })
        let claims = try await hook.claims(for: Self.made, userID: "user-1", authenticationMethod: "password")
        #expect(claims == Self.made.merging(["groups": ["admins"]]) { $1 })
    }

    /// Every answer that is not good claims, and what it fails with.
    static let badAnswers: [(String, AccessTokenHookError)] = [
        ("not json", .invalidAnswer("not a JSON object")),
        ("[1, 2]", .invalidAnswer("not a JSON object")),
        ("{}", .invalidAnswer("no claims")),
        (#"{"claims": [1]}"#, .invalidAnswer("claims is not an object")),
        (#"{"claims": null}"#, .invalidAnswer("claims is not an object")),
        (#"{"error": {"http_code": 403, "message": "banned"}}"#, .refused(status: 403, message: "banned")),
        (#"{"error": {"http_code": 302, "message": "elsewhere"}}"#, .refused(status: 500, message: "elsewhere")),
        (#"{"error": {"message": "no"}, "claims": {}}"#, .refused(status: 500, message: "no")),
    ]

    @Test func answersThatAreNotClaimsFailWithWhy() async throws {
        for (answer, error) in Self.badAnswers {
            let hook = AccessTokenHook(function: "TokenHook", invoker: FakeHookFunction { _ in Array(answer.utf8) })
            await #expect(throws: error, "\(answer)") {
                _ = try await hook.claims(for: Self.made, userID: "user-1", authenticationMethod: "otp")
            }
        }
    }

    @Test func claimsKeepSupabasesTypes() async throws {
        let changes: [(@Sendable (inout [String: JSONValue]) -> Void, String)] = [
            ({ $0["role"] = nil }, "role must be a non-empty string"),
            ({ $0["role"] = "" }, "role must be a non-empty string"),
            ({ $0["email"] = 42 }, "email must be a string"),
            ({ $0["phone"] = true }, "phone must be a string"),
            ({ $0["app_metadata"] = "admin" }, "app_metadata must be an object"),
            ({ $0["user_metadata"] = [1] }, "user_metadata must be an object"),
        ]
        for (change, why) in changes {
            let hook = AccessTokenHook(function: "TokenHook", invoker: FakeHookFunction(changing: change))
            await #expect(throws: AccessTokenHookError.invalidAnswer(why)) {
                _ = try await hook.claims(for: Self.made, userID: "user-1", authenticationMethod: "otp")
            }
        }
        // An empty error (Supabase's rule: not an error) and removed optional claims pass.
        let lenient = AccessTokenHook(
            function: "TokenHook",
            invoker: FakeHookFunction { payload in
                var claims = payload["claims"]?.objectValue ?? [:]
                claims["email"] = nil
                claims["app_metadata"] = nil
                return JSONValue.object(["error": ["message": ""], "claims": .object(claims)]).serializedBytes
            })
        let claims = try await lenient.claims(for: Self.made, userID: "user-1", authenticationMethod: "otp")
        #expect(claims["email"] == nil && claims["sub"] == "user-1")
    }

    @Test func tooLargeATokenOrAnswerIsRefused() async throws {
        let big = AccessTokenHook(
            function: "TokenHook",
            invoker: FakeHookFunction {
                $0["blob"] = .string(String(repeating: "x", count: AccessTokenHook.claimsLimit))
            })
        await #expect(throws: AccessTokenHookError.tooLarge(limit: AccessTokenHook.claimsLimit)) {
            _ = try await big.claims(for: Self.made, userID: "user-1", authenticationMethod: "otp")
        }
        // Claims made past the limit (a large `app_metadata`) may come back as they are, not grow.
        var large = Self.made
        large["app_metadata"] = ["notes": .string(String(repeating: "y", count: AccessTokenHook.claimsLimit))]
        let keeping = AccessTokenHook(function: "TokenHook", invoker: FakeHookFunction { $0["user_metadata"] = nil })
        #expect(try await keeping.claims(for: large, userID: "user-1", authenticationMethod: "otp")["sub"] == "user-1")
        let growing = AccessTokenHook(function: "TokenHook", invoker: FakeHookFunction { $0["tier"] = "gold" })
        await #expect(throws: AccessTokenHookError.tooLarge(limit: AccessTokenHook.claimsLimit)) {
            _ = try await growing.claims(for: large, userID: "user-1", authenticationMethod: "otp")
        }
        let huge = AccessTokenHook(
            function: "TokenHook",
            invoker: FakeHookFunction { _ in Array(repeating: UInt8(ascii: " "), count: AccessTokenHook.answerLimit + 1)
            })
        await #expect(throws: AccessTokenHookError.tooLarge(limit: AccessTokenHook.answerLimit)) {
            _ = try await huge.claims(for: Self.made, userID: "user-1", authenticationMethod: "otp")
        }
    }

    @Test func invocationFailuresAreNamed() async throws {
        let failures: [(any Error, AccessTokenHookError)] = [
            (FunctionInvocationError.timedOut, .timedOut),
            (FunctionInvocationError.answerTooLarge, .tooLarge(limit: AccessTokenHook.answerLimit)),
            (FunctionInvocationError.functionFailed(type: "Unhandled"), .invocationFailed("function error Unhandled")),
            (
                FunctionInvocationError.unreachable("Lambda Invoke answered 403"),
                .invocationFailed("Lambda Invoke answered 403")
            ),
            (CancellationError(), .invocationFailed("not reached")),
        ]
        for (thrown, expected) in failures {
            let hook = AccessTokenHook(function: "TokenHook", invoker: FakeHookFunction { _ in throw thrown })
            await #expect(throws: expected) {
                _ = try await hook.claims(for: Self.made, userID: "user-1", authenticationMethod: "otp")
            }
        }
        #expect(AccessTokenHookError.timedOut.code == "access_token_hook_timeout")
        #expect(AccessTokenHookError.reservedClaim("aud").code == "access_token_hook_failed")
        #expect(
            !AccessTokenHookError.reservedClaim("aud").description.contains("demo"), "names the claim, not its value")
    }

    @Test func theEnvironmentNamesTheHookAndAFunctionThatCannotInvokeItFailsToStart() throws {
        let invoker = FakeHookFunction { _ in [] }
        #expect(try AccessTokenHook(environment: [:], invoker: invoker) == nil)
        #expect(try AccessTokenHook(environment: ["ACCESS_TOKEN_HOOK": ""], invoker: nil) == nil)
        #expect(
            try AccessTokenHook(environment: ["ACCESS_TOKEN_HOOK": "TokenHook"], invoker: invoker)?.function
                == "TokenHook")
        #expect(throws: SettingsError.self) {
            _ = try AccessTokenHook(environment: ["ACCESS_TOKEN_HOOK": "TokenHook"], invoker: nil)
        }
        let clock = TestClock(SessionFixtures.start)
        let keys = try Self.keys.get().privateJWKSJSON()
        let environment = [
            "ISSUER": Self.issuer, "SIGNING_KEYS": String(decoding: keys, as: UTF8.self),
            "ACCESS_TOKEN_HOOK": "TokenHook",
        ]
        #expect(throws: SettingsError.self) {
            _ = try SessionService(environment: environment, store: try SessionFixtures.store(clock: clock))
        }
        _ = try SessionService(
            environment: environment, store: try SessionFixtures.store(clock: clock), functions: invoker)
    }
}
