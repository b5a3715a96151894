import Crypto
import Foundation
import GatehouseJSON
import JOSE
import _CryptoExtras

#if canImport(Glibc)
import Glibc
#endif

// Verifications per second on one core, warm cache, against swift-crypto's raw verify of the
// same signature in the same run (the raw side gets a pre-decoded signature and pre-hashed
// nothing: it hashes the signing input and checks the signature, which is the floor any JWT
// verification pays). Rounds alternate raw and full so drift on a noisy machine hits both.
//
//   swift run -c release --package-path Benchmarks jwt-verify [seconds-per-round]

struct MemoryFetcher: JWKSFetching {
    let document: [UInt8]
    func fetchJWKS(from url: String) async throws -> [UInt8] { document }
}

func monotonic() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
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

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let secondsPerRound = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 1.0
let rounds = 5
let now = 1_800_000_000.0
let claims: [String: JSONValue] = [
    "iss": "https://issuer.test", "aud": "demo", "sub": "user-42", "iat": .number(now - 10),
    "exp": .number(now + 300), "jti": "0f8fad5b-d9cb-469f-a165-70867728950e",
    "data": ["userId": "user-42", "email": "ada@example.com", "name": "Ada Lovelace", "provider": "email"],
]

nonisolated func measure(
    _ name: String, key: some JWSSigningKey, raw: @escaping (ArraySlice<UInt8>, [UInt8]) -> Bool
) async throws {
    let token = try JWS.signJWT(claims: claims, with: key)
    let parts = token.split(separator: ".")
    let signingInput = Array(token.utf8)[..<(parts[0].utf8.count + 1 + parts[1].utf8.count)]
    let signature = Base64URL.decode(parts[2])!
    let document = Array(
        JSONValue.object(["keys": [try JSONValue(parsing: JSONEncoder().encode(key.publicJWK))]]).serialized.utf8)
    let cache = JWKSCache(url: "memory:", fetcher: MemoryFetcher(document: document))
    try await cache.hydrate()
    let verifier = JWTVerifier(issuer: "https://issuer.test", audiences: ["demo"], algorithms: [key.algorithm])

    var raws: [Double] = []
    var fulls: [Double] = []
    for _ in 0..<rounds {
        raws.append(await rate(seconds: secondsPerRound) { raw(signingInput, signature) })
        fulls.append(
            await rate(seconds: secondsPerRound) {
                do {
                    let jws = try verifier.parse(token)
                    return try verifier.verify(jws, keys: await cache.keys(for: jws.kid), now: now).subject != nil
                } catch { return false }
            })
    }
    let ratios = zip(fulls, raws).map { $0 / $1 }
    print(
        "\(name)  raw \(Int(median(raws)))/s  gatehouse \(Int(median(fulls)))/s  ratio median \(String(format: "%.2f", median(ratios)))  range \(String(format: "%.2f", ratios.min()!))–\(String(format: "%.2f", ratios.max()!))  (token \(token.utf8.count) B)"
    )
}

/// Everything runs off the main actor, as a function's handler does: closures made at top level
/// would be main-actor isolated and pay two executor hops per call.
nonisolated func run() async throws {
    let rsa = try RSASigningKey.generate()
    let rsaPublic = try _RSA.Signing.PublicKey(
        n: Base64URL.decode(rsa.publicJWK.n!)!, e: Base64URL.decode(rsa.publicJWK.e!)!)
    try await measure("RS256", key: rsa) { input, signature in
        rsaPublic.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: input),
            padding: .insecurePKCS1v1_5)
    }

    let p256 = P256SigningKey()
    let p256Public = try P256.Signing.PublicKey(
        x963Representation: [0x04] + Base64URL.decode(p256.publicJWK.x!)! + Base64URL.decode(p256.publicJWK.y!)!)
    try await measure("ES256", key: p256) { input, signature in
        p256Public.isValidSignature(
            try! P256.Signing.ECDSASignature(rawRepresentation: signature), for: SHA256.hash(data: input))
    }

    // Where the time goes on the RS256 path, stage by stage (µs per call).
    do {
        let token = try JWS.signJWT(claims: claims, with: rsa)
        let verifier = JWTVerifier(issuer: "https://issuer.test", audiences: ["demo"], algorithms: [.rs256])
        let parseRate = await rate(seconds: 1) { (try? verifier.parse(token)) != nil }
        let jws = try verifier.parse(token)
        let payload = jws.payload
        let jsonRate = await rate(seconds: 1) {
            (try? JSONValue(parsing: payload, rejectingDuplicateKeys: true)) != nil
        }
        let keys = VerificationKeySet(jwks: [rsa.publicJWK])
        let sigRate = await rate(seconds: 1) { (try? jws.verifySignature(allowing: [.rs256], keys: keys)) != nil }
        let part = Array(token.split(separator: ".")[1].utf8)
        let b64Rate = await rate(seconds: 0.5) { Base64URL.decode(bytes: part) != nil }
        let headerBytes = Array(
            #"{"alg":"RS256","kid":"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG","typ":"JWT"}"#.utf8)
        let headerRate = await rate(seconds: 0.5) {
            (try? JSONValue(parsing: headerBytes, rejectingDuplicateKeys: true)) != nil
        }
        print(
            "stages: base64 of the payload \(1e6/b64Rate) µs, header JSON \(1e6/headerRate) µs (\(part.count) B)"
        )
        print("stages: parse \(1e6/parseRate) µs, payload JSON \(1e6/jsonRate) µs, signature step \(1e6/sigRate) µs")
    }
}

try await run()
