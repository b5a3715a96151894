import GatehouseJSON

/// A compact JWS (RFC 7515 §7.1) taken apart strictly, its signature not yet checked.
///
/// Exactly three parts of unpadded base64url; the header is a JSON object with distinct member
/// names, `alg` a string, `kid` (when present) a string, `crit` (when present) a non-empty list
/// of names. The size cap is checked before any decoding.
public struct CompactJWS: Sendable {
    /// The decoded protected header.
    public let header: [String: JSONValue]
    /// The header's `alg`, as written.
    public let algorithm: String
    /// The header's `kid`, when present.
    public let kid: String?
    /// The decoded payload bytes (for a JWT, JSON text; parsed only after the signature checks).
    public let payload: [UInt8]
    let signature: [UInt8]
    /// The token's bytes; the signing input is its prefix up to the second dot.
    let token: [UInt8]
    let signingInputCount: Int

    /// The bytes the signature covers: `BASE64URL(header) "." BASE64URL(payload)`.
    public var signingInput: ArraySlice<UInt8> { token[..<signingInputCount] }

    /// Takes `token` apart; refuses anything over `maximumBytes` before looking inside.
    public init(parsing token: some StringProtocol, maximumBytes: Int = 8192) throws(JWTError) {
        let count = token.utf8.count
        guard count <= maximumBytes else { throw JWTError.tooLarge(bytes: count, limit: maximumBytes) }
        let bytes = Array(token.utf8)
        var dots: [Int] = []
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: ".") {
            dots.append(index)
            if dots.count > 2 { throw JWTError.malformed(.segments) }
        }
        guard dots.count == 2 else { throw JWTError.malformed(.segments) }
        guard let headerBytes = Base64URL.decode(bytes: bytes[..<dots[0]]),
            let payload = Base64URL.decode(bytes: bytes[(dots[0] + 1)..<dots[1]]),
            let signature = Base64URL.decode(bytes: bytes[(dots[1] + 1)...])
        else { throw JWTError.malformed(.base64url) }
        guard case .object(let header)? = try? JSONValue(parsing: headerBytes, rejectingDuplicateKeys: true) else {
            throw JWTError.malformed(.header)
        }
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
        self.payload = payload
        self.signature = signature
        self.token = bytes
        self.signingInputCount = dots[1]
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
        guard key.isValidSignature(signature, for: signingInput) else { throw JWTError.badSignature }
        return key
    }

    /// The header's algorithm, once it is allowed and the header names no key of its own.
    public func checkedAlgorithm(allowing algorithms: Set<JWSAlgorithm>) throws(JWTError) -> JWSAlgorithm {
        if JWSAlgorithm.isForbidden(self.algorithm) { throw JWTError.algorithmNotAllowed(self.algorithm) }
        guard let algorithm = JWSAlgorithm(rawValue: self.algorithm) else {
            throw JWTError.unsupportedAlgorithm(self.algorithm)
        }
        guard algorithms.contains(algorithm) else { throw JWTError.algorithmNotAllowed(self.algorithm) }
        for name in ["jwk", "jku", "x5u", "x5c"] where header[name] != nil {
            throw JWTError.untrustedHeaderKey(name)
        }
        return algorithm
    }
}
