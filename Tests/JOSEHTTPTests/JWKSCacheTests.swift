import GatehouseJSON
import JOSE
import JOSEHTTP
import Synchronization
import Testing

/// The cache against a real local HTTP server, counting the server's requests.
struct JWKSCacheTests {
    static let issuer = "https://issuer.test"
    let first = P256SigningKey()
    let second = P256SigningKey()
    let verifier = JWTVerifier(issuer: JWKSCacheTests.issuer, audiences: ["app"], algorithms: [.es256])

    func document(_ keys: [some JWSSigningKey]) -> String {
        JSONValue.object([
            "keys": .array(
                keys.map { key in
                    let jwk = key.publicJWK
                    return [
                        "kty": "EC", "crv": "P-256", "kid": .string(jwk.kid!), "x": .string(jwk.x!),
                        "y": .string(jwk.y!),
                    ]
                })
        ]).serialized
    }

    func token(_ key: some JWSSigningKey, kid: String? = nil) throws -> String {
        var claims: [String: JSONValue] = ["iss": .string(Self.issuer), "aud": "app", "exp": 4_000_000_000]
        claims["sub"] = "user"
        if let kid {
            let payload = Array(JSONValue.object(claims).serialized.utf8)
            return try JWS.sign(payload: payload, with: RenamedKey(key: key, kid: kid))
        }
        return try JWS.signJWT(claims: claims, with: key)
    }

    /// Verifies through the cache the way the authorizer does: parse, keys for the kid, verify.
    func verify(_ token: String, with cache: JWKSCache) async throws(JWTError) -> VerifiedJWT {
        let jws = try verifier.parse(token)
        // None of these tests lets the keys go stale (JWKSCacheBackoffTests does, calling keys(for:)).
        let keys = (try? await cache.keys(for: jws.kid)) ?? VerificationKeySet(jwks: [])
        return try verifier.verify(jws, keys: keys, now: 1_800_000_000)
    }

    @Test func hydratesOnceAndThenAnswersFromMemory() async throws {
        let server = try await JWKSServer.start(.serve(document([first])))
        defer { Task { await server.stop() } }
        let clock = ManualClock()
        let cache = JWKSCache(url: server.url, fetcher: HTTPJWKSFetcher.patient, uptime: clock.uptime)
        try await cache.hydrate()
        #expect(server.requests == 1)
        let token = try token(first)
        for _ in 0..<200 {
            #expect(try await verify(token, with: cache).subject == "user")
        }
        #expect(server.requests == 1)
    }

    @Test func aFloodOfUnknownKidsFetchesAtMostOncePerPenaltyWindow() async throws {
        let server = try await JWKSServer.start(.serve(document([first])))
        defer { Task { await server.stop() } }
        let clock = ManualClock()
        let fetcher = AdjustableFetcher()
        let cache = JWKSCache(url: server.url, fetcher: fetcher, uptime: clock.uptime)
        try await cache.hydrate()
        let known = try token(first)

        func flood() async throws -> [JWTError?] {
            try await withThrowingTaskGroup(of: JWTError?.self) { group in
                for index in 0..<300 {
                    let forged = try token(second, kid: "random-\(index)-\(Int.random(in: 0..<1_000_000))")
                    group.addTask {
                        do throws(JWTError) {
                            _ = try await verify(forged, with: cache)
                            return nil
                        } catch { return error }
                    }
                }
                // Known keys keep verifying during the flood.
                group.addTask {
                    do throws(JWTError) {
                        _ = try await verify(known, with: cache)
                        return nil
                    } catch { return error }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }

        // Within the window that began with the hydration: nothing is fetched.
        var outcomes = try await flood()
        #expect(server.requests == 1)
        #expect(outcomes.filter { $0 == nil }.count == 1)
        #expect(
            outcomes.allSatisfy { $0 == nil || $0.map { if case .unknownKey = $0 { true } else { false } } == true })

        // After the window: exactly one more fetch for the whole flood.
        clock.advance(by: 10)
        outcomes = try await flood()
        #expect(server.requests == 2)
        #expect(outcomes.filter { $0 == nil }.count == 1)
        outcomes = try await flood()
        #expect(server.requests == 2)
    }

    @Test func concurrentMissesShareOneFetchAndARotatedKeyIsPickedUp() async throws {
        let server = try await JWKSServer.start(.serve(document([first])))
        defer { Task { await server.stop() } }
        let clock = ManualClock()
        // No penalty window: only coalescing can keep this to one fetch.
        let cache = JWKSCache(
            url: server.url, fetcher: HTTPJWKSFetcher.patient, settings: .init(penaltyWindow: 0), uptime: clock.uptime
        )
        try await cache.hydrate()
        server.set(.held(document([second, first])))
        let rotated = try token(second)
        let callers = 40
        async let subjects = withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<callers { group.addTask { try await verify(rotated, with: cache).subject } }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        // Every caller but the one that started the fetch is waiting on it; then let it answer.
        while cache.status.joined < callers - 1 { await Task.yield() }
        server.release()
        #expect(try await subjects == Array(repeating: "user", count: callers))
        #expect(server.requests == 2)
        #expect(cache.status.fetches == 2)
    }

    @Test func cachedKeysStayInUseWhileTheServerFails() async throws {
        let server = try await JWKSServer.start(.serve(document([first])))
        let clock = ManualClock()
        let fetcher = AdjustableFetcher()
        let cache = JWKSCache(url: server.url, fetcher: fetcher, uptime: clock.uptime)
        try await cache.hydrate()
        let known = try token(first)

        // Past the maximum age the refresh fails (500): the request is answered from the old keys.
        server.set(.status(500))
        clock.advance(by: 601)
        #expect(try await verify(known, with: cache).subject == "user")
        while cache.status.fetches < 2 || cache.status.lastError == nil { await Task.yield() }
        #expect(cache.status.lastError?.contains("500") == true)

        // The server gone entirely: an unknown kid refetches (and fails), known keys still work.
        await server.stop()
        fetcher.timeout.withLock { $0 = .milliseconds(300) }
        clock.advance(by: 11)
        await #expect(throws: JWTError.unknownKey(kid: second.kid)) { try await verify(token(second), with: cache) }
        #expect(cache.status.fetches == 3)
        #expect(try await verify(known, with: cache).subject == "user")
        // A hydration that fails reports it, even though an earlier one succeeded.
        await #expect(throws: JWKSCacheError.self) { try await cache.hydrate() }
    }

    @Test func aFailedHydrationSaysWhyAndLeavesTheCacheUsable() async throws {
        let server = try await JWKSServer.start(.serve("<html>not json</html>"))
        defer { Task { await server.stop() } }
        let clock = ManualClock()
        let cache = JWKSCache(url: server.url, fetcher: HTTPJWKSFetcher.patient, uptime: clock.uptime)
        await #expect(throws: JWKSCacheError.self) { try await cache.hydrate() }
        server.set(.status(404))
        await #expect(throws: JWKSCacheError.self) { try await cache.hydrate() }
        #expect(cache.status.lastError?.contains("404") == true)
        // With no keys ever loaded, a token within the backoff is told the keys could not be
        // fetched, not that its kid is unknown: the token may be fine.
        server.set(.serve(document([first])))
        await #expect(throws: JWKSCacheError.fetchFailed(url: server.url, reason: cache.status.lastError ?? "")) {
            try await cache.keys(for: first.kid)
        }
        #expect(server.requests == 2)
        // Once the endpoint works, the next miss after the backoff (two failures: at most 20 s)
        // fetches and verifies.
        clock.advance(by: 20)
        #expect(try await verify(token(first), with: cache).subject == "user")
    }
}

/// A key that signs under another key's `kid` (or any name), for forged headers.
struct RenamedKey<Key: JWSSigningKey>: JWSSigningKey {
    let key: Key
    let kid: String
    var algorithm: JWSAlgorithm { key.algorithm }
    var publicJWK: JWK { key.publicJWK }
    func sign(_ message: [UInt8]) throws -> [UInt8] { try key.sign(message) }
}
