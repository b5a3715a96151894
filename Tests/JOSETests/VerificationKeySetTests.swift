import GatehouseJSON
import Testing

@testable import JOSE

struct VerificationKeySetTests {
    let fixture = TokenFixture.shared

    @Test func badKeysAreSkippedAndTheRestStillWork() throws {
        let rsa = fixture.rsa.publicJWK
        let weak = try TokenFixture.weakRSA().jwk
        let document: JSONValue = [
            "keys": [
                ["kty": "RSA", "kid": "number-n", "n": 5, "e": "AQAB"],
                ["kty": "oct", "kid": "secret", "k": "c2VjcmV0"],
                ["kty": "EC", "kid": "p384", "crv": "P-384", "x": "AA", "y": "AA"],
                [
                    "kty": "RSA", "kid": "enc", "use": "enc", "n": .string(rsa.n!), "e": .string(rsa.e!),
                ],
                ["kty": "RSA", "kid": "weak", "n": .string(weak.n!), "e": .string(weak.e!)],
                ["kty": "RSA", "kid": "rs512", "alg": "RS512", "n": .string(rsa.n!), "e": .string(rsa.e!)],
                [
                    "kty": "RSA", "kid": "private", "n": .string(rsa.n!), "e": .string(rsa.e!), "d": "AQAB",
                ],
                "not an object",
                ["kty": "RSA", "kid": .string(rsa.kid!), "n": .string(rsa.n!), "e": .string(rsa.e!)],
            ]
        ]
        let set = try VerificationKeySet(jwksJSON: Array(document.serialized.utf8))
        #expect(set.keys.map(\.kid) == [rsa.kid])
        #expect(set.skipped.map(\.index) == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(set.skipped[4].reason == .weakKey(bits: 1024))
        let token = TokenFixture.token(signedBy: fixture.rsa)
        #expect(throws: Never.self) { try fixture.verifier.verify(token, keys: set, now: TokenFixture.now) }
    }

    @Test func aDocumentThatIsNotAKeySetIsRefusedAsAWhole() {
        for text in ["", "[]", #"{"keys":{}}"#, #"{"keys":[],"keys":[]}"#, "{"] {
            #expect(throws: JOSEError.self) { try VerificationKeySet(jwksJSON: Array(text.utf8)) }
        }
    }

    @Test func theSameKeyTwiceIsOneKeyButDifferentKeysUnderOneKidAreAmbiguous() throws {
        let same = VerificationKeySet(jwks: [fixture.rsa.publicJWK, fixture.rsa.publicJWK])
        #expect(same.keys.count == 1)
        // Without a kid, a one-key set selects its key.
        let noKid = TokenFixture.token(
            header: #"{"alg":"RS256"}"#, payload: TokenFixture.claims(), signedBy: fixture.rsa)
        #expect(throws: Never.self) { try fixture.verifier.verify(noKid, keys: same, now: TokenFixture.now) }

        var impostor = fixture.stranger.publicJWK
        impostor.kid = fixture.rsa.kid
        for order in [[fixture.rsa.publicJWK, impostor], [impostor, fixture.rsa.publicJWK]] {
            let set = VerificationKeySet(jwks: order + [fixture.p256.publicJWK])
            #expect(set.keys.map(\.kid) == [fixture.p256.kid])
            for signer in [fixture.rsa, fixture.stranger] {
                #expect(throws: JWTError.ambiguousKey(kid: fixture.rsa.kid)) {
                    try fixture.verifier.verify(
                        TokenFixture.token(
                            header: #"{"alg":"RS256","kid":"\#(fixture.rsa.kid)"}"#, payload: TokenFixture.claims(),
                            signedBy: signer),
                        keys: set, now: TokenFixture.now)
                }
            }
        }
    }

    @Test func theROCAKeyFromWycheproofIsRefusedForItsFingerprint() throws {
        let groups = try WycheproofVectors.load("json_web_key_test")["testGroups"]?.arrayValue ?? []
        let roca = try #require(groups.first { $0["comment"] == "jws_rsa_roca_key" })
        let set = try WycheproofVectors.keySet(of: roca)
        #expect(set.keys.isEmpty)
        guard case .insecureKey(let detail)? = set.skipped.first?.reason else {
            Issue.record("expected an insecure-key refusal, got \(set.skipped)")
            return
        }
        #expect(detail.contains("ROCA"))
        // And ordinary keys are not mistaken for it.
        for _ in 0..<3 {
            let key = try RSASigningKey.generate()
            #expect(VerificationKeySet(jwks: [key.publicJWK]).keys.count == 1)
        }
    }
}
