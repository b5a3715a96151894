/// Why a token was refused. Callers and tests match on the case; `reasonCode` is the stable
/// snake_case name for log lines (a log line names the reason, never the token).
public enum JWTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Longer than the verifier's size cap; nothing of it was decoded.
    case tooLarge(bytes: Int, limit: Int)
    /// Not a compact JWS whose header (and, for a JWT, payload) is a JSON object.
    case malformed(JWTMalformation)
    /// `alg` is `none`, an HMAC algorithm, or not in the verifier's allow-list.
    case algorithmNotAllowed(String)
    /// `alg` names an algorithm this module does not implement (RS384, PS256, ES512, ...).
    case unsupportedAlgorithm(String)
    /// `crit` names extensions this verifier does not understand (today: any).
    case unsupportedCriticalHeader([String])
    /// The header carries key material or a key location (`jwk`, `jku`, `x5u`, `x5c`). Keys
    /// come from the configured key set only, so such a token is refused outright.
    case untrustedHeaderKey(String)
    /// No `kid`, and the key set holds more than one key.
    case missingKeyID
    /// No key in the set has this `kid`.
    case unknownKey(kid: String)
    /// The set holds different keys under this `kid`; none of them is used.
    case ambiguousKey(kid: String)
    /// The key named by `kid` cannot verify the header's `alg` (kty or stated alg differ).
    case keyAlgorithmMismatch(alg: String)
    /// The signature does not verify with the selected key.
    case badSignature
    /// A required claim (`exp`, `iss`, `aud`) is absent.
    case missingClaim(String)
    /// A claim has the wrong JSON type (a string `exp`, an `aud` array holding a number, ...).
    case invalidClaim(String)
    /// `exp` has passed (allowing the clock skew).
    case expired
    /// `nbf` is still in the future (allowing the clock skew).
    case notYetValid
    /// `iat` is in the future (allowing the clock skew).
    case issuedInFuture
    /// `iss` is not the configured issuer.
    case wrongIssuer
    /// `aud` names none of the configured audiences (or none at all).
    case wrongAudience

    /// A stable snake_case code for logs and metrics.
    public var reasonCode: String {
        switch self {
        case .tooLarge: "too_large"
        case .malformed(let why): "malformed_\(why.rawValue)"
        case .algorithmNotAllowed: "algorithm_not_allowed"
        case .unsupportedAlgorithm: "unsupported_algorithm"
        case .unsupportedCriticalHeader: "unsupported_crit"
        case .untrustedHeaderKey: "untrusted_header_key"
        case .missingKeyID: "missing_kid"
        case .unknownKey: "unknown_kid"
        case .ambiguousKey: "ambiguous_kid"
        case .keyAlgorithmMismatch: "key_algorithm_mismatch"
        case .badSignature: "bad_signature"
        case .missingClaim: "missing_claim"
        case .invalidClaim: "invalid_claim"
        case .expired: "expired"
        case .notYetValid: "not_yet_valid"
        case .issuedInFuture: "issued_in_future"
        case .wrongIssuer: "wrong_issuer"
        case .wrongAudience: "wrong_audience"
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit): "the token is \(bytes) bytes, over the \(limit)-byte limit"
        case .malformed(let why): "malformed token: \(why.description)"
        case .algorithmNotAllowed(let alg): "algorithm \(alg) is not allowed"
        case .unsupportedAlgorithm(let alg): "algorithm \(alg) is not supported"
        case .unsupportedCriticalHeader(let names): "unsupported critical header parameters: \(names)"
        case .untrustedHeaderKey(let name): "the header carries \"\(name)\"; keys come only from the key set"
        case .missingKeyID: "the token has no kid and the key set holds several keys"
        case .unknownKey(let kid): "no key with kid \(kid)"
        case .ambiguousKey(let kid): "the key set holds different keys under kid \(kid)"
        case .keyAlgorithmMismatch(let alg): "the selected key cannot verify \(alg)"
        case .badSignature: "the signature does not verify"
        case .missingClaim(let name): "the \"\(name)\" claim is missing"
        case .invalidClaim(let name): "the \"\(name)\" claim has the wrong type"
        case .expired: "the token has expired"
        case .notYetValid: "the token is not valid yet (nbf)"
        case .issuedInFuture: "the token was issued in the future (iat)"
        case .wrongIssuer: "the token's issuer is not the configured one"
        case .wrongAudience: "the token is not for this audience"
        }
    }
}

/// How a token fails to be a well-formed compact JWS (RFC 7515 §7.1) or JWT.
public enum JWTMalformation: String, Sendable, Equatable, CustomStringConvertible {
    /// Not exactly three dot-separated parts.
    case segments
    /// A part is not unpadded base64url (padding, white space, foreign characters, stray bits).
    case base64url
    /// The header is not a JSON object (or not JSON, or names a member twice).
    case header
    /// The payload is not a JSON object (or not JSON, or names a member twice).
    case payload
    /// `alg` is missing or not a string, `kid` not a string, `crit` not a list of names.
    case headerMember = "header_member"

    public var description: String {
        switch self {
        case .segments: "a compact JWS has exactly three dot-separated parts"
        case .base64url: "a part is not unpadded base64url"
        case .header: "the header is not a JSON object with distinct member names"
        case .payload: "the payload is not a JSON object with distinct member names"
        case .headerMember: "a header member (alg, kid, crit) has the wrong type"
        }
    }
}
