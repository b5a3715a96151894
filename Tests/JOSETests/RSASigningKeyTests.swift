import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import JOSE

struct RSASigningKeyTests {
    /// RFC 7638 §3.1: the example key and its thumbprint.
    @Test func thumbprintMatchesRFC7638Example() {
        var jwk = JWK(kty: "RSA", kid: "2011-04-29", alg: "RS256")
        jwk.n =
            "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"
        jwk.e = "AQAB"
        #expect(jwk.thumbprint() == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    @Test func thumbprintNeedsTheRequiredMembers() {
        #expect(JWK(kty: "RSA").thumbprint() == nil)
        #expect(JWK(kty: "oct").thumbprint() == nil)
    }

    @Test func generatedKeyRoundTripsThroughItsPrivateJWK() throws {
        let key = try RSASigningKey.generate()
        #expect(key.bits == 2048)
        let jwk = try key.privateJWK()
        #expect(jwk.kid == key.kid)
        #expect(jwk.alg == "RS256")
        #expect(jwk.use == "sig")
        for member in [jwk.d, jwk.p, jwk.q, jwk.dp, jwk.dq, jwk.qi] {
            let bytes = try #require(member.flatMap { Base64URL.decode($0) })
            #expect(bytes.first != 0, "JWK integers carry no leading zero octet")
        }
        let reloaded = try RSASigningKey(jwk: jwk)
        #expect(reloaded.kid == key.kid)
        #expect(reloaded.publicJWK == key.publicJWK)
    }

    @Test func signaturesVerifyWithThePublishedPublicKey() throws {
        let key = try RSASigningKey.generate()
        let message = Array("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ".utf8)
        let signature = try key.signRS256(message)
        #expect(signature.count == 256)
        let publicKey = try _RSA.Signing.PublicKey(
            n: try #require(Base64URL.decode(key.publicJWK.n!)),
            e: try #require(Base64URL.decode(key.publicJWK.e!))
        )
        let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
        #expect(publicKey.isValidSignature(rsaSignature, for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5))
        #expect(
            !publicKey.isValidSignature(
                rsaSignature, for: SHA256.hash(data: message + [0]), padding: .insecurePKCS1v1_5))
    }

    @Test func thePublicJWKHasNoPrivateMember() throws {
        let key = try RSASigningKey.generate()
        let json = try JSONDecoder().decode([String: String].self, from: JSONEncoder().encode(key.publicJWK))
        #expect(Set(json.keys) == ["kty", "kid", "use", "alg", "n", "e"])
        #expect(!key.publicJWK.hasPrivateMembers)
    }

    @Test func keysUnder2048BitsAreRefused() throws {
        #expect(throws: JOSEError.weakKey(bits: 1024)) { try RSASigningKey.generate(bits: 1024) }
        let weak = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
        #expect(throws: JOSEError.weakKey(bits: 1024)) { try RSASigningKey(key: weak) }
    }

    @Test func aKidThatIsNotTheThumbprintIsRefused() throws {
        var jwk = try RSASigningKey.generate().privateJWK()
        jwk.kid = "someone-elses-kid"
        #expect(throws: JOSEError.self) { try RSASigningKey(jwk: jwk) }
    }

    @Test func malformedMembersAreRefusedWithTheirName() throws {
        var jwk = try RSASigningKey.generate().privateJWK()
        jwk.d = nil
        #expect(throws: JOSEError.malformedKey("RSA private key without \"d\"")) { try RSASigningKey(jwk: jwk) }
        jwk = try RSASigningKey.generate().privateJWK()
        jwk.p = "not base64url!"
        #expect(throws: JOSEError.malformedKey("\"p\" is not base64url")) { try RSASigningKey(jwk: jwk) }
        jwk = try RSASigningKey.generate().privateJWK()
        jwk.kty = "EC"
        #expect(throws: JOSEError.unsupportedKey("kty EC is not RSA")) { try RSASigningKey(jwk: jwk) }
    }
}
