/// Why a key or token was refused. Callers match on the case, never on the message.
public enum JOSEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A member is missing or not what its key type requires.
    case malformedKey(String)
    /// An RSA key shorter than 2048 bits.
    case weakKey(bits: Int)
    /// The key type or algorithm is not one this module handles.
    case unsupportedKey(String)
    /// A key that verifies but must not be trusted (a ROCA-generated modulus, exponent 1, ...).
    case insecureKey(String)

    public var description: String {
        switch self {
        case .malformedKey(let detail): "malformed key: \(detail)"
        case .weakKey(let bits): "RSA key of \(bits) bits refused: at least 2048 are required"
        case .unsupportedKey(let detail): "unsupported key: \(detail)"
        case .insecureKey(let detail): "insecure key: \(detail)"
        }
    }
}
