import AuthKit
import Foundation
import GatehouseJSON
import Interleaving
import JOSE

// What trusting other issuers (TRUSTED_ISSUERS) costs Gatehouse's own tokens: decisions per
// second on one core through `AccessTokenAuthorizer.decide`, without the session check, for
// Gatehouse tokens with no trusted issuer configured and with a Cognito pool trusted beside,
// and for the pool's own access tokens, in the same run (interleaved in batches of 100).
//
//   swift build -c release --package-path Benchmarks --product issuer-routing
//   Benchmarks/.build/release/issuer-routing [seconds-per-round] [rounds]

struct MemoryFetcher: JWKSFetching {
    let set: JWKSet
    func fetchJWKS(from url: String) async throws -> [UInt8] { Array(try JSONEncoder().encode(set)) }
}

let secondsPerRound = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 1.0
let rounds = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 9
let now = Date().timeIntervalSince1970.rounded(.down)
let pool = "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Bench"

nonisolated func run() async throws {
    let own = try RSASigningKey.generate()
    let cognito = try RSASigningKey.generate()
    let ownKeys = JWKSCache(url: "memory:own", fetcher: MemoryFetcher(set: JWKSet(keys: [own.publicJWK])))
    let poolKeys = JWKSCache(url: "memory:pool", fetcher: MemoryFetcher(set: JWKSet(keys: [cognito.publicJWK])))
    try await ownKeys.hydrate()
    try await poolKeys.hydrate()
    let verifier = JWTVerifier(issuer: "https://issuer.test", audiences: ["demo"])
    let alone = AccessTokenAuthorizer(verifier: verifier, keys: ownKeys)
    let beside = AccessTokenAuthorizer(
        verifier: verifier, keys: ownKeys,
        issuers: [TrustedIssuerKeys(issuer: TrustedIssuer(issuer: pool, clients: ["client-1"]), keys: poolKeys)])
    var ownHeaders: [String] = []
    var poolHeaders: [String] = []
    for user in 0..<64 {
        let ownClaims: [String: JSONValue] = [
            "iss": "https://issuer.test", "aud": "demo", "sub": .string("user-\(user)"), "iat": .number(now - 10),
            "exp": .number(now + 3600), "data": ["userId": .string("user-\(user)"), "provider": "email"],
        ]
        ownHeaders.append("Bearer " + (try JWS.signJWT(claims: ownClaims, with: own)))
        let poolClaims: [String: JSONValue] = [
            "iss": .string(pool), "client_id": "client-1", "token_use": "access", "sub": .string("cognito-\(user)"),
            "scope": "openid", "iat": .number(now - 10), "exp": .number(now + 3600), "username": .string("u\(user)"),
        ]
        poolHeaders.append("Bearer " + (try JWS.signJWT(claims: poolClaims, with: cognito)))
    }
    var next = [0, 0, 0]
    func index(_ side: Int) -> Int {
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
                    { allows(await alone.decide(authorization: ownHeaders[index(0)])) },
                    { allows(await beside.decide(authorization: ownHeaders[index(1)])) },
                    { allows(await beside.decide(authorization: poolHeaders[index(2)])) },
                ]))
    }
    print("Gatehouse tokens, no trusted issuer  \(Int(median(rates.map { $0[0] })))/s")
    for (side, label) in [(1, "Gatehouse tokens, a pool trusted beside"), (2, "the pool's access tokens")] {
        let ratios = rates.map { $0[side] / $0[0] }
        print(
            "\(label)  \(Int(median(rates.map { $0[side] })))/s  ratio to the first median \(format(median(ratios))) range \(format(ratios.min()!))–\(format(ratios.max()!))"
        )
    }
}

try await run()
