import AuthKit
import Crypto
import Foundation
import GatehouseJSON
import Interleaving
import JOSE
import Store
import _CryptoExtras

#if canImport(Glibc)
import Glibc
#endif

// What the authorizer's session check costs: decisions per second on one core through
// `AccessTokenAuthorizer.decide` (bearer header, parse, the key from a warm JWKS cache, RS256
// signature, claims, context), against swift-crypto's raw RS256 verify of the same signatures,
// in the same run. Three authorizer sides: without the session check; with it and its positive
// cache (a warm instance: the session was looked up within the last 30 s); with it and no cache
// (one read of the SQLite store per decision, the cost a cold entry pays).
//
// 64 users' tokens, each naming its own live session in a temporary store. The sides alternate
// in batches of 100, so drift on a noisy machine hits them alike.
//
//   swift build -c release --package-path Benchmarks --product session-check
//   Benchmarks/.build/release/session-check [seconds-per-round] [rounds]

struct MemoryFetcher: JWKSFetching {
    let document: [UInt8]
    func fetchJWKS(from url: String) async throws -> [UInt8] { document }
}

struct FixedClock: StoreClock {
    let now: Double
}

let secondsPerRound = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 1.0
let rounds = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 9
let now = Date().timeIntervalSince1970.rounded(.down)

nonisolated func run() async throws {
    let key = try RSASigningKey.generate()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "session-check-\(UUID().uuidString)/store.sqlite"
    ).path
    let store = try SQLiteStore(
        path: path,
        tables: [
            TableDefinition(
                name: "Sessions", partitionKey: .init(name: "userId", type: .string),
                sortKey: .init(name: "sessionId", type: .string), timeToLiveAttribute: "ttl")
        ], clock: FixedClock(now: now))
    var tokens: [String] = []
    for user in 0..<64 {
        let sessionID = "session-\(user)"
        try await store.put(
            "Sessions",
            item: ["userId": .string("user-\(user)"), "sessionId": .string(sessionID), "ttl": .number(now + 86400)],
            condition: nil)
        let claims: [String: JSONValue] = [
            "iss": "https://issuer.test", "aud": "demo", "sub": .string("user-\(user)"), "sid": .string(sessionID),
            "iat": .number(now - 10), "exp": .number(now + 3600), "jti": .string(UUID().uuidString),
            "data": [
                "userId": .string("user-\(user)"), "email": .string("user\(user)@example.com"), "name": "Ada",
                "provider": "email",
            ],
        ]
        tokens.append(try JWS.signJWT(claims: claims, with: key))
    }
    let headers = tokens.map { "Bearer \($0)" }
    let inputs = tokens.map { token -> ArraySlice<UInt8> in
        let bytes = Array(token.utf8)
        return bytes[..<bytes.lastIndex(of: UInt8(ascii: "."))!]
    }
    let signatures = tokens.map { Base64URL.decode($0.split(separator: ".")[2])! }
    let publicKey = try _RSA.Signing.PublicKey(
        n: Base64URL.decode(key.publicJWK.n!)!, e: Base64URL.decode(key.publicJWK.e!)!)

    let document = Array(
        JSONValue.object(["keys": [try JSONValue(parsing: JSONEncoder().encode(key.publicJWK))]]).serialized.utf8)
    let cache = JWKSCache(url: "memory:", fetcher: MemoryFetcher(document: document))
    try await cache.hydrate()
    let verifier = JWTVerifier(issuer: "https://issuer.test", audiences: ["demo"])
    let plain = AccessTokenAuthorizer(verifier: verifier, keys: cache)
    let remembering = AccessTokenAuthorizer(
        verifier: verifier, keys: cache, sessions: SessionCheck(store: store, cacheSeconds: 30))
    let reading = AccessTokenAuthorizer(
        verifier: verifier, keys: cache, sessions: SessionCheck(store: store, cacheSeconds: 0))

    var next = [0, 0, 0, 0]
    func token(_ side: Int) -> Int {
        next[side] = (next[side] + 1) & 63
        return next[side]
    }
    func allows(_ decision: AccessDecision) -> Bool {
        if case .allow = decision { return true }
        return false
    }
    var rates: [[Double]] = []
    for _ in 0..<rounds {
        rates.append(
            await interleavedRates(
                seconds: secondsPerRound,
                [
                    {
                        let index = token(0)
                        return publicKey.isValidSignature(
                            _RSA.Signing.RSASignature(rawRepresentation: signatures[index]),
                            for: SHA256.hash(data: inputs[index]), padding: .insecurePKCS1v1_5)
                    },
                    { allows(await plain.decide(authorization: headers[token(1)])) },
                    { allows(await remembering.decide(authorization: headers[token(2)])) },
                    { allows(await reading.decide(authorization: headers[token(3)])) },
                ]))
    }
    print("raw swift-crypto RS256 verify  \(Int(median(rates.map { $0[0] })))/s")
    for (side, label) in [
        (1, "decide, no session check"), (2, "decide + session check, cached"),
        (3, "decide + session check, a store read each"),
    ] {
        let ratios = rates.map { $0[side] / $0[0] }
        let extra = rates.map { 1e6 / $0[side] - 1e6 / $0[1] }
        print(
            "\(label)  \(Int(median(rates.map { $0[side] })))/s  ratio to raw median \(format(median(ratios))) range \(format(ratios.min()!))–\(format(ratios.max()!))  +\(format(median(extra))) µs over no check"
        )
    }
}

try await run()
