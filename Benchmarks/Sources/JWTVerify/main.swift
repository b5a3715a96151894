import Crypto
import Foundation
import GatehouseJSON
import Interleaving
import JOSE
import _CryptoExtras

#if canImport(Glibc)
import Glibc
#endif

// Verifications per second on one core, warm cache, against swift-crypto's raw verify of the
// same signatures in the same run. The raw side gets pre-decoded signatures: it hashes the
// signing input and checks the signature, the floor any JWT verification pays. The Gatehouse
// side is measured twice: a verification (parse, the key from the JWKS cache, signature,
// claims), and that plus reading what the authorizer puts in its context (`sub` and the four
// members of `data`).
//
// The tokens are 64 users' tokens from one signing key (so the header is shared and the
// payloads differ, as in production); both sides go round them. Raw and Gatehouse alternate in
// batches of 100, so drift on a noisy machine hits both alike.
//
//   swift run -c release --package-path Benchmarks jwt-verify [seconds-per-round] [rounds]
//   perf record -g .build/release/jwt-verify profile     (the Gatehouse RS256 path alone)

struct MemoryFetcher: JWKSFetching {
    let document: [UInt8]
    func fetchJWKS(from url: String) async throws -> [UInt8] { document }
}

/// Runs `body` in batches for about `seconds`; returns operations per second.
nonisolated func rate(seconds: Double, _ body: () async -> Bool) async -> Double {
    var count = 0
    let start = monotonic()
    var elapsed = 0.0
    while elapsed < seconds {
        for _ in 0..<200 {
            guard await body() else { fatalError("a verification failed") }
        }
        count += 200
        elapsed = monotonic() - start
    }
    return Double(count) / elapsed
}

let secondsPerRound = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 1.0
let rounds = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 9
let now = 1_800_000_000.0

/// One user's claims, shaped like a Gatehouse access token's.
func claims(user: Int) -> [String: JSONValue] {
    [
        "iss": "https://issuer.test", "aud": "demo", "sub": .string("user-\(user)"), "iat": .number(now - 10),
        "exp": .number(now + 300), "jti": .string(UUID().uuidString.lowercased()),
        "data": [
            "userId": .string("user-\(user)"), "email": .string("user\(user)@example.com"), "name": "Ada Lovelace",
            "provider": "email",
        ],
    ]
}

/// Tokens for 64 users from `key`, each with its signing input and decoded signature for the raw side.
struct TokenSet: Sendable {
    let tokens: [String]
    let signingInputs: [ArraySlice<UInt8>]
    let signatures: [[UInt8]]
    let cache: JWKSCache

    init(key: some JWSSigningKey) async throws {
        tokens = try (0..<64).map { try JWS.signJWT(claims: claims(user: $0), with: key) }
        signingInputs = tokens.map { token in
            Array(token.utf8)[..<token.utf8.lastIndex(of: UInt8(ascii: "."))!.utf16Offset(in: token)]
        }
        signatures = tokens.map { Base64URL.decode($0.split(separator: ".")[2])! }
        let document = Array(
            JSONValue.object(["keys": [try JSONValue(parsing: JSONEncoder().encode(key.publicJWK))]]).serialized.utf8)
        cache = JWKSCache(url: "memory:", fetcher: MemoryFetcher(document: document))
        try await cache.hydrate()
    }
}

/// A verification: parse, the keys from the JWKS cache, signature, claims.
nonisolated func verify(_ token: String, verifier: JWTVerifier, cache: JWKSCache) async -> VerifiedJWT? {
    do {
        let jws = try verifier.parse(token)
        return try verifier.verify(jws, keys: try await cache.keys(for: jws.kid), now: now)
    } catch { return nil }
}

/// What the authorizer does with a token: a verification, then the values of its context.
nonisolated func authorize(_ token: String, verifier: JWTVerifier, cache: JWKSCache) async -> Bool {
    guard let verified = await verify(token, verifier: verifier, cache: cache) else { return false }
    let data = verified.claims.object("data")
    return verified.subject != nil && ["userId", "email", "name", "provider"].allSatisfy { data?[$0] != nil }
}

nonisolated func measure(
    _ name: String, key: some JWSSigningKey, raw: @escaping (ArraySlice<UInt8>, [UInt8]) -> Bool
) async throws {
    let set = try await TokenSet(key: key)
    let verifier = JWTVerifier(issuer: "https://issuer.test", audiences: ["demo"], algorithms: [key.algorithm])
    var next = [0, 0, 0]
    func token(_ side: Int) -> Int {
        next[side] = (next[side] + 1) & 63
        return next[side]
    }
    var rates: [[Double]] = []
    for _ in 0..<rounds {
        rates.append(
            await interleavedRates(
                seconds: secondsPerRound,
                [
                    {
                        let index = token(0)
                        return raw(set.signingInputs[index], set.signatures[index])
                    },
                    { await verify(set.tokens[token(1)], verifier: verifier, cache: set.cache) != nil },
                    { await authorize(set.tokens[token(2)], verifier: verifier, cache: set.cache) },
                ]))
    }
    func report(_ label: String, side: Int) {
        let ratios = rates.map { $0[side] / $0[0] }
        print(
            "\(name) \(label)  \(Int(median(rates.map { $0[side] })))/s  ratio to raw median \(format(median(ratios)))  range \(format(ratios.min()!))–\(format(ratios.max()!))"
        )
    }
    print(
        "\(name) raw swift-crypto verify  \(Int(median(rates.map { $0[0] })))/s  (token \(set.tokens[0].utf8.count) B)")
    report("verification", side: 1)
    report("verification + context claims", side: 2)
}

/// Where the time goes on the RS256 path, stage by stage, each measured alternating with the
/// raw verify so its share of that is meaningful on a noisy machine.
nonisolated func stages(key: RSASigningKey, rawVerify: @escaping (ArraySlice<UInt8>, [UInt8]) -> Bool) async throws {
    let set = try await TokenSet(key: key)
    let token = set.tokens[0]
    func stage(_ name: String, _ body: @escaping () async -> Bool) async {
        let rates = await interleavedRates(
            seconds: 0.6, [{ rawVerify(set.signingInputs[0], set.signatures[0]) }, body])
        let (raw, rate) = (rates[0], rates[1])
        print(
            "  \(name): \(format(1e6 / rate)) µs = \(format(100 * raw / rate, 1))% of the raw verify (\(format(1e6 / raw, 1)) µs)"
        )
    }
    let verifier = JWTVerifier(issuer: "https://issuer.test", audiences: ["demo"], algorithms: [.rs256])
    let jws = try verifier.parse(token)
    let keys = VerificationKeySet(jwks: [key.publicJWK])
    let parts = token.split(separator: ".")
    let payloadPart = Array(parts[1].utf8)
    let signaturePart = Array(parts[2].utf8)
    let headerBytes = Base64URL.decode(parts[0])!
    let payload = jws.payload
    let kid = jws.kid
    print("RS256 stages:")
    await stage("parse (split, decode, header)") { (try? verifier.parse(token)) != nil }
    await stage("  base64 of the payload (\(payloadPart.count) B)") { Base64URL.decode(bytes: payloadPart) != nil }
    await stage("  base64 of the signature") { Base64URL.decode(bytes: signaturePart) != nil }
    await stage("  checking the header (\(headerBytes.count) B)") { (try? LazyJSONObject(parsing: headerBytes)) != nil }
    await stage("cache lookup") { await !((try? set.cache.keys(for: kid))?.keys.isEmpty ?? true) }
    await stage("signature step") { (try? jws.verifySignature(allowing: [.rs256], keys: keys)) != nil }
    await stage("checking the claims (\(payload.count) B)") { (try? LazyJSONObject(parsing: payload)) != nil }
    await stage("verify a parsed token") { (try? verifier.verify(jws, keys: keys, now: now)) != nil }
    let verified = try verifier.verify(jws, keys: keys, now: now)
    await stage("reading data.userId") { verified.claims.object("data")?["userId"] != nil }
    await stage("verification") { await verify(token, verifier: verifier, cache: set.cache) != nil }
    await stage("everything") { await authorize(token, verifier: verifier, cache: set.cache) }
}

/// Everything runs off the main actor, as a function's handler does: closures made at top level
/// would be main-actor isolated and pay two executor hops per call.
nonisolated func run() async throws {
    let rsa = try RSASigningKey.generate()
    if CommandLine.arguments.dropFirst().first == "profile" {
        // Only the Gatehouse RS256 path, for `perf record -g`: the raw side would drown it.
        let set = try await TokenSet(key: rsa)
        let verifier = JWTVerifier(issuer: "https://issuer.test", audiences: ["demo"], algorithms: [.rs256])
        var next = 0
        let perSecond = await rate(seconds: 5) {
            next = (next + 1) & 63
            return await authorize(set.tokens[next], verifier: verifier, cache: set.cache)
        }
        print("RS256 full path \(Int(perSecond))/s")
        return
    }
    let rsaPublic = try _RSA.Signing.PublicKey(
        n: Base64URL.decode(rsa.publicJWK.n!)!, e: Base64URL.decode(rsa.publicJWK.e!)!)
    let rsaVerify = { (input: ArraySlice<UInt8>, signature: [UInt8]) in
        rsaPublic.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input),
            padding: .insecurePKCS1v1_5)
    }
    try await measure("RS256", key: rsa, raw: rsaVerify)

    let p256 = P256SigningKey()
    let p256Public = try P256.Signing.PublicKey(
        x963Representation: [0x04] + Base64URL.decode(p256.publicJWK.x!)! + Base64URL.decode(p256.publicJWK.y!)!)
    try await measure("ES256", key: p256) { input, signature in
        p256Public.isValidSignature(
            try! P256.Signing.ECDSASignature(rawRepresentation: signature), for: SHA256.hash(data: input))
    }

    try await stages(key: rsa, rawVerify: rsaVerify)
}

try await run()
