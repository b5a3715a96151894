import Foundation
import GatehouseJSON

@testable import JOSE

/// Reads the Wycheproof files copied into this target's resources (see Wycheproof/README.md
/// for their origin and licence).
enum WycheproofVectors {
    static func load(_ name: String) throws -> JSONValue {
        let url = try require(
            Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Wycheproof")
        )
        return try JSONValue(parsing: Data(contentsOf: url))
    }

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// A test group's public key as a JWK: its own JWK when it has one, otherwise built from
    /// the uncompressed EC point (some ECDSA groups give only that).
    static func publicJWK(of group: JSONValue) throws -> JWK {
        if case .object(let object)? = group["publicKeyJwk"] ?? group["keyJwk"] {
            return try JWK(object: object)
        }
        let point = hex(try require(group["publicKey"]?["uncompressed"]?.stringValue))
        var jwk = JWK(kty: "EC")
        jwk.crv = "P-256"
        jwk.x = Base64URL.encode(point[1...32])
        jwk.y = Base64URL.encode(point[33...64])
        return jwk
    }

    /// The key set a JWS or JWK-set test group verifies with: its public key or set, or, for the
    /// symmetric groups that have none, its private (oct) key set, every key of which is skipped.
    static func keySet(of group: JSONValue) throws -> VerificationKeySet {
        let keys = try require(group["public"] ?? group["private"])
        let set: JSONValue = keys["keys"] != nil ? keys : ["keys": [keys]]
        return try VerificationKeySet(jwksJSON: Array(set.serialized.utf8))
    }

    /// The JWS algorithm a group's key is for, from the key (or the first key of its set).
    static func algorithm(of group: JSONValue) -> String? {
        let keys = group["private"] ?? group["public"]
        return (keys?["keys"]?.arrayValue?.first ?? keys)?["alg"]?.stringValue
    }
}

/// `#require` for the helpers above, which are not inside a test function.
private func require<T>(_ value: T?, _ what: StaticString = "a Wycheproof member") throws -> T {
    guard let value else { throw WycheproofFormatError(what: "\(what)") }
    return value
}

private struct WycheproofFormatError: Error {
    let what: String
}
