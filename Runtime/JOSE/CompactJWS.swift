import GatehouseJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A compact JWS (RFC 7515 §7.1) taken apart strictly, its signature not yet checked.
///
/// Exactly three parts of unpadded base64url; the header is a JSON object with distinct member
/// names, `alg` a string, `kid` (when present) a string, `crit` (when present) a non-empty list
/// of names. The size cap is checked before any decoding.
public struct CompactJWS: Sendable {
    /// The decoded protected header, checked; its members are decoded when read.
    public let header: LazyJSONObject
    /// The header's `alg`, as written.
    public let algorithm: String
    /// The header's `kid`, when present.
    public let kid: String?
    /// The decoded payload bytes (for a JWT, JSON text; parsed only after the signature checks).
    public let payload: [UInt8]
    let signature: [UInt8]
    /// `algorithm` when this module implements it. Read once: the verifier asks twice.
    private let knownAlgorithm: JWSAlgorithm?
    /// The first header member that carries or points at a key, when there is one.
    private let keyHeader: String?
    /// The token; the signing input is its prefix up to the second dot.
    let token: String
    let signingInputCount: Int

    /// The bytes the signature covers: `BASE64URL(header) "." BASE64URL(payload)`.
    public var signingInput: ArraySlice<UInt8> { Array(token.utf8)[..<signingInputCount] }

    /// Takes `token` apart; refuses anything over `maximumBytes` before looking inside.
    public init(parsing token: some StringProtocol, maximumBytes: Int = 8192) throws(JWTError) {
        let count = token.utf8.count
        guard count <= maximumBytes else { throw JWTError.tooLarge(bytes: count, limit: maximumBytes) }
        // Read in place: the token's bytes are not copied, only its three parts decoded.
        var text = String(token)
        let parts = try text.withUTF8 { bytes in Result { () throws(JWTError) in try Parts(splitting: bytes) } }.get()
        let (headerBytes, payload, signature) = (parts.header, parts.payload, parts.signature)
        guard let header = try? LazyJSONObject(parsing: headerBytes) else { throw JWTError.malformed(.header) }
        guard case .string(let algorithm)? = header["alg"] else { throw JWTError.malformed(.headerMember) }
        switch header["kid"] {
        case nil: kid = nil
        case .string(let value): kid = value
        default: throw JWTError.malformed(.headerMember)
        }
        switch header["crit"] {
        case nil: break
        case .array(let names) where !names.isEmpty && names.allSatisfy({ $0.stringValue != nil }):
            // No extension is understood today, so any critical one refuses the token (§4.1.11).
            throw JWTError.unsupportedCriticalHeader(names.compactMap(\.stringValue))
        default: throw JWTError.malformed(.headerMember)
        }
        self.header = header
        self.algorithm = algorithm
        self.knownAlgorithm = JWSAlgorithm(rawValue: algorithm)
        self.keyHeader = Self.keyHeaders.first { header.contains($0) }
        self.payload = payload
        self.signature = signature
        self.token = text
        self.signingInputCount = parts.signingInputCount
    }

    /// The three parts of a token, decoded.
    private struct Parts {
        let header: [UInt8]
        let payload: [UInt8]
        let signature: [UInt8]
        /// Where the second dot is.
        let signingInputCount: Int

        init(splitting bytes: UnsafeBufferPointer<UInt8>) throws(JWTError) {
            // memchr: a byte-at-a-time loop over the token cost as much as decoding it.
            func dot(after start: Int) -> Int? {
                guard start < bytes.count,
                    let found = memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: ".")), bytes.count - start)
                else { return nil }
                return bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            guard let first = dot(after: 0), let second = dot(after: first + 1), dot(after: second + 1) == nil else {
                throw JWTError.malformed(.segments)
            }
            guard let header = Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[..<first])),
                let payload = Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])),
                let signature = Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[(second + 1)...]))
            else { throw JWTError.malformed(.base64url) }
            self.header = header
            self.payload = payload
            self.signature = signature
            self.signingInputCount = second
        }
    }

    /// Checks the header against the allow-list, selects the key and verifies the signature.
    /// The key set decides which key `kid` names; the rules are `VerificationKeySet.key(for:)`'s.
    public func verifySignature(
        allowing algorithms: Set<JWSAlgorithm>,
        keys: VerificationKeySet
    ) throws(JWTError) -> VerificationKey {
        let algorithm = try checkedAlgorithm(allowing: algorithms)
        let key = try keys.key(for: kid)
        guard key.algorithm == algorithm else { throw JWTError.keyAlgorithmMismatch(alg: self.algorithm) }
        var text = token
        let valid = text.withUTF8 { bytes in
            key.isValidSignature(
                signature, for: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<signingInputCount])))
        }
        guard valid else { throw JWTError.badSignature }
        return key
    }

    /// The header's algorithm, once it is allowed and the header names no key of its own.
    public func checkedAlgorithm(allowing algorithms: Set<JWSAlgorithm>) throws(JWTError) -> JWSAlgorithm {
        // The algorithms this module knows are none of the forbidden ones.
        guard let algorithm = knownAlgorithm else {
            if JWSAlgorithm.isForbidden(self.algorithm) { throw JWTError.algorithmNotAllowed(self.algorithm) }
            throw JWTError.unsupportedAlgorithm(self.algorithm)
        }
        guard algorithms.contains(algorithm) else { throw JWTError.algorithmNotAllowed(self.algorithm) }
        if let keyHeader { throw JWTError.untrustedHeaderKey(keyHeader) }
        return algorithm
    }

    /// The header members that carry or point at a key, which a verifier must never use.
    private static let keyHeaders = ["jwk", "jku", "x5u", "x5c"]
}
