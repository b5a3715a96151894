import GatehouseJSON
import JOSE
import Synchronization
import Testing

/// The cache while its issuer fails: fetches back off, and keys past their staleness limit are
/// refused. A fetcher in memory counts the calls, so a thousand verifications at once show how
/// many reach the issuer.
struct JWKSCacheBackoffTests {
    /// Serves a document or fails, as told, counting calls.
    final class CountingFetcher: JWKSFetching {
        struct Failure: Error, CustomStringConvertible {
            var description: String { "the issuer is down" }
        }

        private let state: Mutex<(document: [UInt8]?, calls: Int)>

        init(document: String) { state = Mutex((Array(document.utf8), 0)) }

        var calls: Int { state.withLock { $0.calls } }
        func fail() { state.withLock { $0.document = nil } }
        func serve(_ document: String) { state.withLock { $0.document = Array(document.utf8) } }

        func fetchJWKS(from url: String) async throws -> [UInt8] {
            let document = state.withLock { state in
                state.calls += 1
                return state.document
            }
            guard let document else { throw Failure() }
            return document
        }
    }

    let key = P256SigningKey()
    let verifier = JWTVerifier(issuer: "https://issuer.test", audiences: ["app"], algorithms: [.es256])

    var document: String {
        let jwk = key.publicJWK
        return JSONValue.object([
            "keys": [
                ["kty": "EC", "crv": "P-256", "kid": .string(jwk.kid!), "x": .string(jwk.x!), "y": .string(jwk.y!)]
            ]
        ]).serialized
    }

    func token(kid: String? = nil) throws -> String {
        let claims: JSONValue = ["iss": "https://issuer.test", "aud": "app", "exp": 4_000_000_000, "sub": "user"]
        guard let kid else { return try JWS.signJWT(claims: claims.objectValue!, with: key) }
        return try JWS.sign(payload: Array(claims.serialized.utf8), with: RenamedKey(key: key, kid: kid))
    }

    /// A thousand verifications at once, half with the known key and half with unknown kids; how
    /// many verified.
    func thousandVerifications(_ cache: JWKSCache) async throws -> Int {
        let known = try token()
        let unknown = try (0..<500).map { try token(kid: "unknown-\($0)") }
        return await withTaskGroup(of: Bool.self) { group in
            for index in 0..<1000 {
                let token = index.isMultiple(of: 2) ? known : unknown[index / 2]
                group.addTask {
                    guard let jws = try? verifier.parse(token), let keys = try? await cache.keys(for: jws.kid) else {
                        return false
                    }
                    return (try? verifier.verify(jws, keys: keys, now: 1_800_000_000)) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
    }

    /// Waits until every fetch started has ended.
    func settle(_ cache: JWKSCache) async {
        while cache.status.fetches != cache.status.successes + cache.status.failures { await Task.yield() }
    }

    /// Before, a failed background refresh was retried by the next request, so a failing issuer
    /// got a fetch per request for as long as it failed.
    @Test func aFailingIssuerIsFetchedOncePerBackoffStep() async throws {
        let clock = ManualClock()
        let fetcher = CountingFetcher(document: document)
        let cache = JWKSCache(
            url: "memory:", fetcher: fetcher,
            settings: .init(penaltyWindow: 10, maximumAge: 600, maximumBackoff: 40), uptime: clock.uptime,
            jitter: { 0 })
        try await cache.hydrate()
        fetcher.fail()

        // Past the maximum age: one background refresh, which fails; the known key still works.
        clock.advance(by: 601)
        #expect(try await thousandVerifications(cache) == 500)
        await settle(cache)
        #expect(fetcher.calls == 2)

        // The steps: 10 s, then 20, 40, and 40 again (the maximum); one fetch each.
        for (step, calls) in [(9.0, 2), (1, 3), (19, 3), (1, 4), (39, 4), (1, 5), (40, 6)] {
            clock.advance(by: step)
            #expect(try await thousandVerifications(cache) == 500)
            await settle(cache)
            #expect(fetcher.calls == calls, "after \(step) s more")
        }

        // Once the issuer answers again, the next step's fetch succeeds and the backoff ends.
        fetcher.serve(document)
        clock.advance(by: 40)
        _ = try await thousandVerifications(cache)
        await settle(cache)
        #expect(cache.status.successes == 2)
        #expect(cache.status.lastError == nil)
    }

    /// Jitter shortens each step by up to half, never lengthens it.
    @Test(arguments: [(0.0, 2), (0.999, 3)])
    func jitterShortensTheStep(jitter: Double, calls: Int) async throws {
        let clock = ManualClock()
        let fetcher = CountingFetcher(document: document)
        let cache = JWKSCache(
            url: "memory:", fetcher: fetcher, settings: .init(penaltyWindow: 10), uptime: clock.uptime,
            jitter: { jitter })
        try await cache.hydrate()
        fetcher.fail()
        clock.advance(by: 600)
        _ = try await thousandVerifications(cache)
        await settle(cache)
        // The step is 10 s, or just over 5 with the most jitter.
        clock.advance(by: 5.1)
        _ = try await thousandVerifications(cache)
        await settle(cache)
        #expect(fetcher.calls == calls)
    }

    /// Keys whose refreshes have failed for longer than the limit are not used: verification
    /// fails closed with an error saying so, until a fetch succeeds.
    @Test func keysPastTheirStalenessAreRefused() async throws {
        let clock = ManualClock()
        let fetcher = CountingFetcher(document: document)
        let cache = JWKSCache(
            url: "memory:", fetcher: fetcher,
            settings: .init(penaltyWindow: 10, maximumAge: 600, maximumBackoff: 300, maximumStaleness: 3600),
            uptime: clock.uptime, jitter: { 0 })
        try await cache.hydrate()
        fetcher.fail()
        clock.advance(by: 3600)
        #expect(try await cache.keys(for: key.kid).knows(kid: key.kid))
        await settle(cache)
        clock.advance(by: 1)
        await #expect(throws: JWKSCacheError.stale(url: "memory:", ageSeconds: 3601, limitSeconds: 3600)) {
            try await cache.keys(for: key.kid)
        }
        #expect(JWKSCacheError.stale(url: "memory:", ageSeconds: 3601, limitSeconds: 3600).reasonCode == "jwks_stale")
        // The issuer is back: once the backoff allows, the fetch is waited for and the keys work.
        fetcher.serve(document)
        clock.advance(by: 10)
        #expect(try await cache.keys(for: key.kid).knows(kid: key.kid))
    }
}
