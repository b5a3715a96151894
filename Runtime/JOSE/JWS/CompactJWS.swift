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
    public var header: LazyJSONObject { checkedHeader.object }
    /// The header's `alg`, as written.
    public var algorithm: String { checkedHeader.algorithm }
    /// The header's `kid`, when present.
    public var kid: String? { checkedHeader.kid }
    let checkedHeader: JWSHeader
    /// The decoded payload bytes (for a JWT, JSON text; parsed only after the signature checks).
    public let payload: [UInt8]
    let signature: [UInt8]
    /// The token; the signing input is its prefix up to the second dot.
    let token: String
    let signingInputCount: Int

    /// The bytes the signature covers: `BASE64URL(header) "." BASE64URL(payload)`.
    public var signingInput: ArraySlice<UInt8> { Array(token.utf8)[..<signingInputCount] }

    /// Takes `token` apart; refuses anything over `maximumBytes` before looking inside.
    public init(parsing token: some StringProtocol, maximumBytes: Int = 8192) throws(JWTError) {
        try self.init(parsing: token, maximumBytes: maximumBytes, headerMemo: nil)
    }

    /// Takes `token` apart, taking its header from `headerMemo` when the memo has seen the same
    /// header text.
    init(parsing token: some StringProtocol, maximumBytes: Int, headerMemo: JWSHeaderMemo?) throws(JWTError) {
        let count = token.utf8.count
        guard count <= maximumBytes else { throw JWTError.tooLarge(bytes: count, limit: maximumBytes) }
        // Read in place: the token's bytes are not copied, only its three parts decoded.
        var text = String(token)
        let (parts, header) = try text.withUTF8 { bytes in
            Result { () throws(JWTError) -> (Parts, JWSHeader) in
                let parts = try Parts(splitting: bytes)
                let segment = UnsafeBufferPointer(rebasing: bytes[..<parts.headerCount])
                if let headerMemo { return (parts, try headerMemo.header(segment: segment)) }
                return (parts, try JWSHeader(segment: segment))
            }
        }.get()
        self.checkedHeader = header
        self.payload = parts.payload
        self.signature = parts.signature
        self.token = text
        self.signingInputCount = parts.signingInputCount
    }

    /// Where a token's parts are, its payload and signature decoded (the header is `JWSHeader`'s).
    private struct Parts {
        /// Where the first dot is.
        let headerCount: Int
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
            guard let payload = Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])),
                let signature = Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[(second + 1)...]))
            else { throw JWTError.malformed(.base64url) }
            self.headerCount = first
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
        guard let algorithm = checkedHeader.knownAlgorithm else {
            if JWSAlgorithm.isForbidden(self.algorithm) { throw JWTError.algorithmNotAllowed(self.algorithm) }
            throw JWTError.unsupportedAlgorithm(self.algorithm)
        }
        guard algorithms.contains(algorithm) else { throw JWTError.algorithmNotAllowed(self.algorithm) }
        if let keyHeader = checkedHeader.keyHeader { throw JWTError.untrustedHeaderKey(keyHeader) }
        return algorithm
    }
}
