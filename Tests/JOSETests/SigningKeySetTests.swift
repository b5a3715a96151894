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
