import Crypto
import Foundation
import GatehouseJSON
import Testing
import _CryptoExtras

@testable import JOSE

/// One hostile (or broken) token and the typed reason it must be refused for.
struct Attack: Sendable, CustomTestStringConvertible {
    let name: String
    let token: String
    let expected: JWTError
    var keys: VerificationKeySet = TokenFixture.shared.keys
    var verifier: JWTVerifier = TokenFixture.shared.verifier

    var testDescription: String { name }
}

extension Attack {
    static var all: [Attack] {
        let fixture = TokenFixture.shared
        let rsa = fixture.rsa
        let claims = TokenFixture.claims()
        let valid = TokenFixture.token(signedBy: rsa)
        let parts = valid.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let rsaHeader = #"{"alg":"RS256","kid":"\#(rsa.kid)"}"#
        func unsigned(_ header: String, _ signature: String = "") -> String {
            Base64URL.encode(header.utf8) + "." + Base64URL.encode(claims.utf8) + "." + signature
        }
        func withClaims(_ overrides: [String: JSONValue?]) -> String {
            TokenFixture.token(payload: TokenFixture.claims(overrides), signedBy: rsa)
        }
        func withHeader(_ extra: String) -> String {
            TokenFixture.token(
                header: #"{"alg":"RS256","kid":"\#(rsa.kid)",\#(extra)}"#, payload: claims, signedBy: rsa)
        }
        let publicKeyBytes = Array(rsa.key.publicKey.pemRepresentation.utf8)
        let hmacInput =
            Base64URL.encode(#"{"alg":"HS256","kid":"\#(rsa.kid)"}"#.utf8) + "." + Base64URL.encode(claims.utf8)
        let hmac = HMAC<SHA256>.authenticationCode(
            for: Array(hmacInput.utf8), using: SymmetricKey(data: publicKeyBytes))
        let strangerJWK = JSONValue.object([
            "kty": "RSA", "n": .string(fixture.stranger.publicJWK.n!), "e": .string(fixture.stranger.publicJWK.e!),
        ]).serialized
        let weak = try! TokenFixture.weakRSA()
        let weakInput = Base64URL.encode(#"{"alg":"RS256","kid":"weak"}"#.utf8) + "." + Base64URL.encode(claims.utf8)
        let weakToken = weakInput + "." + Base64URL.encode(try! weak.sign(Array(weakInput.utf8)))
        var truncated = Base64URL.decode(parts[2])!
        truncated.removeLast(16)
        var flipped = Array(claims.utf8)
        flipped[flipped.count - 2] ^= 1
        let esDER = Array(try! fixture.p256.key.signature(for: SHA256.hash(data: Array("x".utf8))).derRepresentation)

        return [
            Attack(
                name: "alg none, no signature", token: unsigned(#"{"alg":"none"}"#),
                expected: .algorithmNotAllowed("none")),
            Attack(
                name: "alg none with a signature", token: unsigned(#"{"alg":"none","kid":"\#(rsa.kid)"}"#, parts[2]),
                expected: .algorithmNotAllowed("none")
            ),
            Attack(
                name: "alg NoNe (case games)", token: unsigned(#"{"alg":"NoNe"}"#),
                expected: .algorithmNotAllowed("NoNe")),
            Attack(
                name: "HS256 keyed with the RSA public key's bytes",
                token: hmacInput + "." + Base64URL.encode(hmac), expected: .algorithmNotAllowed("HS256")
            ),
            Attack(
                name: "alg/kty mismatch: ES256 header naming the RSA key",
                token: TokenFixture.token(
                    header: #"{"alg":"ES256","kid":"\#(rsa.kid)"}"#, payload: claims, signedBy: fixture.p256),
                expected: .keyAlgorithmMismatch(alg: "ES256")
            ),
            Attack(
                name: "alg/kty mismatch: EdDSA header naming the P-256 key",
                token: TokenFixture.token(
                    header: #"{"alg":"EdDSA","kid":"\#(fixture.p256.kid)"}"#, payload: claims, signedBy: fixture.ed25519
                ),
                expected: .keyAlgorithmMismatch(alg: "EdDSA")
            ),
            Attack(
                name: "ES256 when only RS256 is allowed", token: TokenFixture.token(signedBy: fixture.p256),
                expected: .algorithmNotAllowed("ES256"),
                verifier: JWTVerifier(issuer: TokenFixture.issuer, audiences: ["app"], algorithms: [.rs256])
            ),
            Attack(
                name: "RS512 (unsupported)", token: unsigned(#"{"alg":"RS512","kid":"\#(rsa.kid)"}"#, parts[2]),
                expected: .unsupportedAlgorithm("RS512")),
            Attack(
                name: "PS256 (unsupported)", token: unsigned(#"{"alg":"PS256","kid":"\#(rsa.kid)"}"#, parts[2]),
                expected: .unsupportedAlgorithm("PS256")),
            Attack(
                name: "unknown kid",
                token: TokenFixture.token(header: #"{"alg":"RS256","kid":"nope"}"#, payload: claims, signedBy: rsa),
                expected: .unknownKey(kid: "nope")
            ),
            Attack(
                name: "no kid with a multi-key set",
                token: TokenFixture.token(header: #"{"alg":"RS256"}"#, payload: claims, signedBy: rsa),
                expected: .missingKeyID
            ),
            Attack(
                name: "embedded jwk (the attacker's own key)",
                token: TokenFixture.token(
                    header: #"{"alg":"RS256","kid":"\#(rsa.kid)","jwk":\#(strangerJWK)}"#, payload: claims,
                    signedBy: fixture.stranger),
                expected: .untrustedHeaderKey("jwk")
            ),
            Attack(
                name: "jku", token: withHeader(#""jku":"https://evil.test/jwks.json""#),
                expected: .untrustedHeaderKey("jku")),
            Attack(
                name: "x5u", token: withHeader(#""x5u":"https://evil.test/cert.pem""#),
                expected: .untrustedHeaderKey("x5u")),
            Attack(name: "x5c", token: withHeader(#""x5c":["MIIB"]"#), expected: .untrustedHeaderKey("x5c")),
            Attack(
                name: "unknown crit", token: withHeader(#""crit":["exp"],"exp":1"#),
                expected: .unsupportedCriticalHeader(["exp"])),
            Attack(name: "empty crit", token: withHeader(#""crit":[]"#), expected: .malformed(.headerMember)),
            Attack(
                name: "kid is a number", token: unsigned(#"{"alg":"RS256","kid":7}"#, parts[2]),
                expected: .malformed(.headerMember)),
            Attack(
                name: "duplicate header member", token: unsigned(#"{"alg":"RS256","alg":"none"}"#, parts[2]),
                expected: .malformed(.header)),
            Attack(
                name: "header is not an object", token: unsigned(#"["RS256"]"#, parts[2]), expected: .malformed(.header)
            ),
            Attack(name: "expired", token: withClaims(["exp": .number(TokenFixture.now - 61)]), expected: .expired),
            Attack(
                name: "nbf in the future", token: withClaims(["nbf": .number(TokenFixture.now + 61)]),
                expected: .notYetValid),
            Attack(
                name: "iat in the future", token: withClaims(["iat": .number(TokenFixture.now + 61)]),
                expected: .issuedInFuture),
            Attack(name: "wrong issuer", token: withClaims(["iss": "https://evil.test"]), expected: .wrongIssuer),
            Attack(
                name: "issuer with a trailing slash", token: withClaims(["iss": .string(TokenFixture.issuer + "/")]),
                expected: .wrongIssuer),
            Attack(name: "no issuer", token: withClaims(["iss": .none]), expected: .missingClaim("iss")),
            Attack(name: "wrong audience", token: withClaims(["aud": "someone-else"]), expected: .wrongAudience),
            Attack(name: "empty audience list", token: withClaims(["aud": []]), expected: .wrongAudience),
            Attack(
                name: "audience list holding a number", token: withClaims(["aud": ["app", 7]]),
                expected: .invalidClaim("aud")),
            Attack(name: "no audience", token: withClaims(["aud": .none]), expected: .missingClaim("aud")),
            Attack(
                name: "string exp", token: withClaims(["exp": .string("\(Int(TokenFixture.now) + 300)")]),
                expected: .invalidClaim("exp")),
            Attack(name: "no exp", token: withClaims(["exp": .none]), expected: .missingClaim("exp")),
            Attack(name: "string nbf", token: withClaims(["nbf": "0"]), expected: .invalidClaim("nbf")),
            Attack(name: "sub is an object", token: withClaims(["sub": ["id": "x"]]), expected: .invalidClaim("sub")),
            Attack(
                name: "truncated signature", token: parts[0] + "." + parts[1] + "." + Base64URL.encode(truncated),
                expected: .badSignature),
            Attack(name: "empty signature", token: parts[0] + "." + parts[1] + ".", expected: .badSignature),
            Attack(
                name: "payload changed after signing",
                token: parts[0] + "." + Base64URL.encode(flipped) + "." + parts[2],
                expected: .badSignature
            ),
            Attack(
                name: "a different key's valid signature under a colliding kid",
                token: TokenFixture.token(header: rsaHeader, payload: claims, signedBy: fixture.stranger),
                expected: .badSignature
            ),
            Attack(
                name: "ES256 signature in DER instead of r‖s",
                token: TokenFixture.token(signedBy: fixture.p256).split(separator: ".").prefix(2).joined(separator: ".")
                    + "."
                    + Base64URL.encode(esDER),
                expected: .badSignature
            ),
            Attack(name: "extra segment", token: valid + ".e30", expected: .malformed(.segments)),
            Attack(name: "two segments", token: parts[0] + "." + parts[1], expected: .malformed(.segments)),
            Attack(
                name: "padding", token: parts[0] + "=." + parts[1] + "." + parts[2], expected: .malformed(.base64url)),
            Attack(
                name: "base64 (not url) characters",
                token: parts[0] + "." + parts[1] + "."
                    + parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                    + "+/",
                expected: .malformed(.base64url)
            ),
            Attack(
                name: "white space", token: parts[0] + ". " + parts[1] + "." + parts[2],
                expected: .malformed(.base64url)),
            Attack(
                name: "oversize token (9 KB)",
                token: withClaims(["padding": .string(String(repeating: "a", count: 9000))]),
                expected: .tooLarge(
                    bytes: withClaims(["padding": .string(String(repeating: "a", count: 9000))]).utf8.count, limit: 8192
                )
            ),
            Attack(
                name: "duplicate claim names",
                token: TokenFixture.token(
                    header: rsaHeader, payload: #"{"sub":"user-1","sub":"admin","exp":1}"#, signedBy: rsa),
                expected: .malformed(.payload)
            ),
            Attack(
                name: "payload is not an object",
                token: TokenFixture.token(header: rsaHeader, payload: "[1,2]", signedBy: rsa),
                expected: .malformed(.payload)
            ),
            Attack(
                name: "a 1024-bit RSA key in the key set", token: weakToken, expected: .unknownKey(kid: "weak"),
                keys: VerificationKeySet(jwks: [rsa.publicJWK, weak.jwk])
            ),
        ]
    }
}

struct JWTAttackTests {
    @Test(arguments: Attack.all)
    func refusedForTheRightReason(attack: Attack) {
        #expect(throws: attack.expected) {
            try attack.verifier.verify(attack.token, keys: attack.keys, now: TokenFixture.now)
        }
    }

    /// A verifier remembers the last header it took apart (one issuer's tokens share theirs).
    /// Through one verifier, alternating with valid tokens, every attack is still refused for
    /// its reason, twice running, and the valid tokens still verify.
    @Test func theHeaderMemoChangesNoDecision() throws {
        let fixture = TokenFixture.shared
        let shared = fixture.verifier
        for attack in Attack.all + Attack.all {
            // Copies share the memo; take the attack's settings.
            var verifier = shared
            verifier.issuer = attack.verifier.issuer
            verifier.audiences = attack.verifier.audiences
            verifier.algorithms = attack.verifier.algorithms
            verifier.clockSkew = attack.verifier.clockSkew
            verifier.maximumTokenBytes = attack.verifier.maximumTokenBytes
            let valid = TokenFixture.token(signedBy: fixture.rsa)
            #expect(throws: Never.self) { try shared.verify(valid, keys: fixture.keys, now: TokenFixture.now) }
            for _ in 0..<2 {
                #expect(throws: attack.expected, "\(attack.name)") {
                    try verifier.verify(attack.token, keys: attack.keys, now: TokenFixture.now)
                }
            }
        }
    }

    @Test func thereAreAtLeastThirtyDistinctAttacks() {
        let attacks = Attack.all
        #expect(attacks.count >= 30)
        #expect(Set(attacks.map(\.token)).count == attacks.count)
    }
}
