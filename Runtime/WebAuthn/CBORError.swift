/// Why bytes are not a CBOR item `CBORDecoder` accepts. The position helps a test say where;
/// it is never a secret (these are public keys and signatures).
public enum CBORError: Error, Sendable, Equatable {
    /// The bytes end inside an item.
    case truncated
    /// Bytes are left after the item.
    case trailingBytes(at: Int)
    /// An encoding CBOR has but WebAuthn never sends (floats, tags, indefinite lengths, reserved
    /// additional information, other simple values).
    case unsupported(String, at: Int)
    /// A text string that is not UTF-8.
    case invalidText(at: Int)
    /// Nested deeper, or longer, than anything WebAuthn sends.
    case tooLarge(String)
    /// A map with the same key twice.
    case duplicateKey(at: Int)
}
