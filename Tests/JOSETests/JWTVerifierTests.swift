import GatehouseJSON
import Testing

@testable import JOSE

struct JWTVerifierTests {
    let fixture = TokenFixture.shared

    @Test func eachAlgorithmVerifiesAndReturnsItsClaims() throws {
        let signers: [any JWSSigningKey] = [fixture.rsa, fixture.p256, fixture.ed25519]
        for signer in signers {
            let token = try JWS.signJWT(
                claims: try #require(JSONValue(parsing: Array(TokenFixture.claims().utf8)).objectValue), with: signer
            )
            let verified = try fixture.verifier.verify(token, keys: fixture.keys, now: TokenFixture.now)
            #expect(verified.algorithm == signer.algorithm)
            #expect(verified.kid == signer.kid)
            #expect(verified.subject == "user-1")
            #expect(verified.expiresAt == TokenFixture.now + 300)
            #expect(verified.claims["data"]?["email"] == "a@example.com")
            #expect(verified.header["typ"] == "JWT")
        }
    }

    @Test func anAudienceListNeedsOneConfiguredAudience() throws {
        let token = TokenFixture.token(
            payload: TokenFixture.claims(["aud": ["someone", "other-app"]]), signedBy: fixture.rsa)
        #expect(throws: Never.self) { try fixture.verifier.verify(token, keys: fixture.keys, now: TokenFixture.now) }
    }

    @Test func clockSkewIsAllowedOnEveryTimeClaimAndNoFurther() throws {
        let now = TokenFixture.now
        func check(_ overrides: [String: JSONValue?]) -> JWTError? {
            let token = TokenFixture.token(payload: TokenFixture.claims(overrides), signedBy: fixture.rsa)
            do {
                _ = try fixture.verifier.verify(token, keys: fixture.keys, now: now)
                return nil
            } catch { return error }
        }
        #expect(check(["exp": .number(now - 59)]) == nil)
        // The current time must be before exp + skew: at exactly that second the token is expired.
        #expect(check(["exp": .number(now - 60)]) == .expired)
        #expect(check(["nbf": .number(now + 60)]) == nil)
        #expect(check(["nbf": .number(now + 60.5)]) == .notYetValid)
        #expect(check(["iat": .number(now + 60)]) == nil)
        #expect(check(["iat": .number(now + 61)]) == .issuedInFuture)
        var strict = fixture.verifier
        strict.clockSkew = 0
        let token = TokenFixture.token(payload: TokenFixture.claims(["exp": .number(now)]), signedBy: fixture.rsa)
        #expect(throws: JWTError.expired) { try strict.verify(token, keys: fixture.keys, now: now) }
    }

    /// RFC 7515 Appendix A.2: RS256 with the RSA key of RFC 7517 Appendix A.1 (no kid in the
    /// token, one key in the set).
    @Test func rfc7515AppendixA2() throws {
        let keys = try VerificationKeySet(
            jwksJSON: Array(
                #"{"keys":[{"kty":"RSA","e":"AQAB","n":"ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ"}]}"#
                    .utf8)
        )
        let token =
            "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ."
            + "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"
        try checkRFCExample(token, keys: keys, algorithm: .rs256)
    }

    /// RFC 7515 Appendix A.3: ES256, r‖s.
    @Test func rfc7515AppendixA3() throws {
        let keys = try VerificationKeySet(
            jwksJSON: Array(
                #"{"keys":[{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}"#
                    .utf8)
        )
        let token =
            "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ."
            + "DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
        try checkRFCExample(token, keys: keys, algorithm: .es256)
    }

    /// The signature verifies; as a JWT for issuer "joe" it is valid just before its 2011 `exp`
    /// (it has no `aud`, so that is what is missing) and expired after it.
    private func checkRFCExample(_ token: String, keys: VerificationKeySet, algorithm: JWSAlgorithm) throws {
        let jws = try CompactJWS(parsing: token)
        #expect(try jws.verifySignature(allowing: [algorithm], keys: keys).algorithm == algorithm)
        let verifier = JWTVerifier(issuer: "joe", audiences: ["app"], algorithms: [algorithm], clockSkew: 0)
        #expect(throws: JWTError.missingClaim("aud")) { try verifier.verify(token, keys: keys, now: 1_300_819_379) }
        #expect(throws: JWTError.expired) { try verifier.verify(token, keys: keys, now: 1_300_819_380) }
    }
}
