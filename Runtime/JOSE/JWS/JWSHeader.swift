import GatehouseJSON

/// A JWS protected header, decoded from its base64url segment and checked: a JSON object with
/// distinct member names, `alg` a string, `kid` (when present) a string, `crit` (when present)
/// a non-empty list of names — and refused, since no extension is understood.
///
/// A class: every token carries one, and the memo hands out the same one; a reference is one
/// retain to copy where the fields were five.
final class JWSHeader: Sendable {
    /// The header's members, decoded when read.
    let object: LazyJSONObject
    /// `alg`, as written.
    let algorithm: String
    /// `kid`, when present.
    let kid: String?
    /// `algorithm` when this module implements it.
    let knownAlgorithm: JWSAlgorithm?
    /// The first member that carries or points at a key (`jwk`, `jku`, `x5u`, `x5c`), if any.
    let keyHeader: String?

    /// The header members that carry or point at a key, which a verifier must never use.
    private static let keyHeaders = ["jwk", "jku", "x5u", "x5c"]

    init(segment: UnsafeBufferPointer<UInt8>) throws(JWTError) {
        guard let bytes = Base64URL.decode(bytes: segment) else { throw JWTError.malformed(.base64url) }
        guard let object = try? LazyJSONObject(parsing: bytes) else { throw JWTError.malformed(.header) }
        guard case .string(let algorithm)? = object["alg"] else { throw JWTError.malformed(.headerMember) }
        switch object["kid"] {
        case nil: kid = nil
        case .string(let value): kid = value
        default: throw JWTError.malformed(.headerMember)
        }
        switch object["crit"] {
        case nil: break
        case .array(let names) where !names.isEmpty && names.allSatisfy({ $0.stringValue != nil }):
            // No extension is understood today, so any critical one refuses the token (§4.1.11).
            throw JWTError.unsupportedCriticalHeader(names.compactMap(\.stringValue))
        default: throw JWTError.malformed(.headerMember)
        }
        self.object = object
        self.algorithm = algorithm
        self.knownAlgorithm = JWSAlgorithm(rawValue: algorithm)
        self.keyHeader = Self.keyHeaders.first { object.contains($0) }
    }
}
