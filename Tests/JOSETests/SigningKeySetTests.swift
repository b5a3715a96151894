import Foundation
import Testing

@testable import JOSE

struct SigningKeySetTests {
    @Test func rotationPutsANewKeyFirstAndKeepsTheOldOnePublished() throws {
        var set = try SigningKeySet.generate()
        let first = set.current.kid
        try set.rotate()
        #expect(set.keys.count == 2)
        #expect(set.current.kid != first)
        #expect(set.publicJWKS.keys.map(\.kid) == [set.current.kid, first])
    }

    @Test func retiringRemovesAPreviousKeyButNeverTheCurrentOne() throws {
        var set = try SigningKeySet.generate()
        let old = set.current.kid
        try set.rotate()
        #expect(throws: SigningKeySetError.cannotRetireCurrentKey(kid: set.current.kid)) {
            try set.retire(kid: set.current.kid)
        }
        #expect(throws: SigningKeySetError.unknownKey(kid: "nope")) { try set.retire(kid: "nope") }
        try set.retire(kid: old)
        #expect(set.keys.map(\.kid) == [set.current.kid])
    }

    @Test func thePrivateJSONRoundTripsInOrder() throws {
        var set = try SigningKeySet.generate()
        try set.rotate()
        let reloaded = try SigningKeySet(jwksJSON: try set.privateJWKSJSON())
        #expect(reloaded.keys.map(\.kid) == set.keys.map(\.kid))
    }

    @Test func thePublicJWKSCarriesNoPrivateMemberAnywhere() throws {
        var set = try SigningKeySet.generate()
        try set.rotate()
        let json = try JSONEncoder().encode(set.publicJWKS)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: [[String: Any]]])
        let keys = try #require(object["keys"])
        #expect(keys.count == 2)
        for key in keys {
            #expect(Set(key.keys).isDisjoint(with: JWK.privateMemberNames))
            #expect(key["kty"] as? String == "RSA")
        }
    }

    @Test func invalidSetsAreRefusedWithAReason() throws {
        #expect(throws: JOSEError.malformedKey("the signing key set has no keys")) {
            try SigningKeySet(jwksJSON: Array(#"{"keys":[]}"#.utf8))
        }
        #expect(throws: JOSEError.self) { try SigningKeySet(jwksJSON: Array("not json".utf8)) }
        let key = try RSASigningKey.generate().privateJWK()
        let duplicate = try JSONEncoder().encode(JWKSet(keys: [key, key]))
        #expect(throws: JOSEError.malformedKey("kid \(key.kid!) appears twice in the signing key set")) {
            try SigningKeySet(jwksJSON: duplicate)
        }
        let publicOnly = try JSONEncoder().encode(JWKSet(keys: [key.publicKey]))
        #expect(
            throws: JOSEError.malformedKey("key 0 of the signing key set: malformed key: RSA private key without \"d\"")
        ) {
            try SigningKeySet(jwksJSON: publicOnly)
        }
    }
}

struct PublicJWKSReadingTests {
    @Test func theSameKeysAsTheFullSetWithoutPrivateMembers() throws {
        var set = try SigningKeySet.generate()
        try set.rotate()
        let published = try SigningKeySet.publicJWKS(fromJWKSJSON: try set.privateJWKSJSON())
        #expect(published == set.publicJWKS)
        #expect(published.keys.allSatisfy { !$0.hasPrivateMembers })
        // A public-only set reads the same way.
        let publicOnly = try JSONEncoder().encode(set.publicJWKS)
        #expect(try SigningKeySet.publicJWKS(fromJWKSJSON: publicOnly) == set.publicJWKS)
    }

    @Test func eachKeyIsStillChecked() throws {
        let key = try RSASigningKey.generate().privateJWK()
        func refuses(
            _ edit: (inout JWK) -> Void, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            var jwk = key
            edit(&jwk)
            let json = try JSONEncoder().encode(JWKSet(keys: [jwk]))
            #expect(throws: JOSEError.malformedKey(message), sourceLocation: sourceLocation) {
                try SigningKeySet.publicJWKS(fromJWKSJSON: json)
            }
        }
        try refuses(
            { $0.kid = "other" },
            "key 0 of the signing key set: malformed key: kid other is not the key's RFC 7638 thumbprint \(key.kid!)")
        try refuses({ $0.kty = "EC" }, "key 0 of the signing key set: unsupported key: kty EC is not RSA")
        try refuses(
            { $0.alg = "HS256" }, "key 0 of the signing key set: unsupported key: alg HS256 on an RSA signing key")
        try refuses(
            { $0.n = "AA" + $0.n! },
            "key 0 of the signing key set: malformed key: \"n\" is missing or not a minimal base64url integer")
        try refuses(
            { $0.n = Base64URL.encode(Base64URL.decode($0.n!)!.prefix(128)) },
            "key 0 of the signing key set: RSA key of 1024 bits refused: at least 2048 are required")
        // An empty "n" once passed the leading-zero check and crashed on its first octet.
        try refuses(
            { $0.n = "" },
            "key 0 of the signing key set: malformed key: \"n\" is missing or not a minimal base64url integer")
        try refuses(
            { $0.e = nil },
            "key 0 of the signing key set: malformed key: \"e\" is missing or not a minimal base64url integer")
        let duplicate = try JSONEncoder().encode(JWKSet(keys: [key, key]))
        #expect(throws: JOSEError.malformedKey("kid \(key.kid!) appears twice in the signing key set")) {
            try SigningKeySet.publicJWKS(fromJWKSJSON: duplicate)
        }
    }
}
