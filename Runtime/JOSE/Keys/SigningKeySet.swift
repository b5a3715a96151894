#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The issuer's signing keys: one current key that signs, and previous keys that stay published
/// (so tokens they signed still verify) until they are retired.
///
/// Stored as a JWK Set with private members; **the first key is the current one**, the rest are
/// previous keys, newest first. Rotation puts a new key in front; retiring removes a previous key.
public struct SigningKeySet: Sendable {
    /// The current key first, then previous keys, newest first.
    public private(set) var keys: [RSASigningKey]

    /// The key that signs new tokens.
    public var current: RSASigningKey { keys[0] }

    /// A set holding one new key.
    public static func generate() throws -> SigningKeySet {
        SigningKeySet(keys: [try RSASigningKey.generate()])
    }

    init(keys: [RSASigningKey]) {
        precondition(!keys.isEmpty, "a signing key set holds at least its current key")
        self.keys = keys
    }

    /// Reads a set from its JWKS JSON (with private members). Refuses an empty set, a key that
    /// is not a valid RSA private key, and two keys with the same `kid`.
    public init(jwksJSON: some DataProtocol) throws {
        keys = try Self.readKeys(jwksJSON, as: RSASigningKey.init(jwk:), kid: \.kid)
    }

    /// The set-level checks every reader of a stored set makes: a JWK Set, not empty, each key
    /// accepted by `read` (its error says which key), no `kid` twice.
    static func readKeys<Key>(
        _ json: some DataProtocol,
        as read: (JWK) throws -> Key,
        kid: (Key) -> String
    ) throws -> [Key] {
        let set: JWKSet
        do {
            set = try JSONDecoder().decode(JWKSet.self, from: Data(json))
        } catch {
            throw JOSEError.malformedKey("the signing key set is not a JWK Set: \(error)")
        }
        guard !set.keys.isEmpty else { throw JOSEError.malformedKey("the signing key set has no keys") }
        var seen = Set<String>()
        var keys: [Key] = []
        for (index, jwk) in set.keys.enumerated() {
            let key: Key
            do {
                key = try read(jwk)
            } catch let error as JOSEError {
                throw JOSEError.malformedKey("key \(index) of the signing key set: \(error)")
            }
            guard seen.insert(kid(key)).inserted else {
                throw JOSEError.malformedKey("kid \(kid(key)) appears twice in the signing key set")
            }
            keys.append(key)
        }
        return keys
    }

    /// A new current key; the old current key stays published as the newest previous key.
    public mutating func rotate() throws {
        keys.insert(try RSASigningKey.generate(), at: 0)
    }

    /// Removes a previous key, so tokens it signed stop verifying. The current key cannot be retired.
    public mutating func retire(kid: String) throws {
        guard let index = keys.firstIndex(where: { $0.kid == kid }) else {
            throw SigningKeySetError.unknownKey(kid: kid)
        }
        guard index != 0 else { throw SigningKeySetError.cannotRetireCurrentKey(kid: kid) }
        keys.remove(at: index)
    }

    /// The public JWKS to publish: every key, current first, no private member.
    public var publicJWKS: JWKSet {
        JWKSet(keys: keys.map(\.publicJWK))
    }

    /// The private JWKS JSON to store (sorted members, one key per array element).
    public func privateJWKSJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(JWKSet(keys: keys.map { try $0.privateJWK() }))
    }
}

/// A key-set operation that names a key the set cannot act on.
public enum SigningKeySetError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownKey(kid: String)
    case cannotRetireCurrentKey(kid: String)

    public var description: String {
        switch self {
        case .unknownKey(let kid): "no key with kid \(kid) in the signing key set"
        case .cannotRetireCurrentKey(let kid): "\(kid) is the current signing key: rotate first, then retire it"
        }
    }
}
