import GatehouseJSON

/// The usable keys of a JWK Set, parsed once, looked up by `kid`.
///
/// Reading is forgiving per key and strict per set: a key that is unsupported or malformed is
/// skipped (with the reason in `skipped`), and the other keys still work; a document that is not
/// a JSON object with a `keys` array is refused as a whole.
///
/// **Duplicate `kid`s.** Entries with the same `kid` and the same key material (the same RFC 7638
/// thumbprint) count as one key. Entries with the same `kid` and *different* key material make
/// that `kid` ambiguous: none of them is used, whatever their order, and a token naming it is
/// refused as `JWTError.ambiguousKey`. Choosing by position would let the order of a publisher's
/// list decide which key a token is checked against.
public struct VerificationKeySet: Sendable {
    /// A key that was left out, with its position in the set and the reason.
    public struct SkippedKey: Sendable, Equatable {
        public let index: Int
        public let kid: String?
        public let reason: JOSEError
    }

    /// The usable keys in document order.
    public var keys: [VerificationKey] { storage.keys }
    /// The keys that were left out.
    public var skipped: [SkippedKey] { storage.skipped }
    private var byKID: [String: VerificationKey] { storage.byKID }
    private var ambiguousKIDs: Set<String> { storage.ambiguousKIDs }

    /// The parsed set, behind one reference: the cache hands a copy of the set to every request,
    /// and copying four collections meant four retains and releases each time.
    private final class Storage: Sendable {
        let keys: [VerificationKey]
        let skipped: [SkippedKey]
        let byKID: [String: VerificationKey]
        let ambiguousKIDs: Set<String>

        init(
            keys: [VerificationKey], skipped: [SkippedKey], byKID: [String: VerificationKey], ambiguousKIDs: Set<String>
        ) {
            self.keys = keys
            self.skipped = skipped
            self.byKID = byKID
            self.ambiguousKIDs = ambiguousKIDs
        }
    }

    private let storage: Storage

    /// Reads the keys of a JWK Set document (RFC 7517 §5).
    public init(jwksJSON bytes: some Sequence<UInt8>) throws(JOSEError) {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes, rejectingDuplicateKeys: true)
        } catch {
            throw JOSEError.malformedKey("the key set is not JSON: \(error)")
        }
        guard case .array(let entries)? = document["keys"] else {
            throw JOSEError.malformedKey("the key set has no \"keys\" list")
        }
        var jwks: [Result<JWK, JOSEError>] = []
        for entry in entries {
            guard case .object(let object) = entry else {
                jwks.append(.failure(JOSEError.malformedKey("a key is not a JSON object")))
                continue
            }
            jwks.append(Result { () throws(JOSEError) in try JWK(object: object) })
        }
        self.init(entries: jwks)
    }

    /// The usable keys among `jwks`, with the same rules as reading a document.
    public init(jwks: [JWK]) {
        self.init(entries: jwks.map { .success($0) })
    }

    private init(entries: [Result<JWK, JOSEError>]) {
        var candidates: [VerificationKey] = []
        var skipped: [SkippedKey] = []
        for (index, entry) in entries.enumerated() {
            do {
                candidates.append(try VerificationKey(jwk: entry.get()))
            } catch {
                skipped.append(SkippedKey(index: index, kid: try? entry.get().kid, reason: error))
            }
        }
        var byKID: [String: VerificationKey] = [:]
        var ambiguous = Set<String>()
        var keys: [VerificationKey] = []
        for key in candidates {
            guard let kid = key.kid else {
                keys.append(key)
                continue
            }
            if let existing = byKID[kid] {
                if existing.thumbprint != key.thumbprint { ambiguous.insert(kid) }
                continue
            }
            byKID[kid] = key
            keys.append(key)
        }
        for kid in ambiguous { byKID[kid] = nil }
        storage = Storage(
            keys: keys.filter { $0.kid.map { !ambiguous.contains($0) } ?? true }, skipped: skipped, byKID: byKID,
            ambiguousKIDs: ambiguous)
    }

    /// The key a token's header selects: by `kid`; without a `kid`, only when the set holds
    /// exactly one key. An unknown `kid` is a miss, never a fallback to another key.
    public func key(for kid: String?) throws(JWTError) -> VerificationKey {
        guard let kid else {
            guard keys.count == 1, ambiguousKIDs.isEmpty else { throw JWTError.missingKeyID }
            return keys[0]
        }
        if let key = usableKey(kid) { return key }
        throw ambiguousKIDs.contains(kid) ? JWTError.ambiguousKey(kid: kid) : JWTError.unknownKey(kid: kid)
    }

    /// True when `kid` names a usable or an ambiguous key (a miss is neither).
    public func knows(kid: String) -> Bool {
        usableKey(kid) != nil || (!ambiguousKIDs.isEmpty && ambiguousKIDs.contains(kid))
    }

    /// The usable key called `kid`. A published set holds a handful of keys: comparing a
    /// 43-character thumbprint with each is cheaper than hashing it once.
    private func usableKey(_ kid: String) -> VerificationKey? {
        if keys.count <= 8 { return keys.first { $0.kid == kid } }
        return byKID[kid]
    }
}
