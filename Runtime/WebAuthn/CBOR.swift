/// One CBOR data item (RFC 8949), as WebAuthn's attestation objects and COSE keys use them:
/// integers, byte and text strings, arrays, maps, `true`, `false` and `null`. What WebAuthn never
/// sends (floats, tags, indefinite lengths, other simple values) is refused by `CBORDecoder`.
public enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// The integer `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Entries in the order they were encoded (keys are unique: `CBORDecoder` refuses repeats).
    case map([Entry])
    case bool(Bool)
    case null

    /// One key and value of a map.
    public struct Entry: Sendable, Equatable {
        public let key: CBOR
        public let value: CBOR

        public init(_ key: CBOR, _ value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// The integer, when it is one that fits an `Int64`.
    public var integer: Int64? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: nil
        }
    }

    /// The byte string's bytes, when it is one.
    public var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The text string, when it is one.
    public var textString: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// A map's value under the integer key `key` (COSE's labels).
    public subscript(label key: Int64) -> CBOR? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key.integer == key }?.value
    }

    /// A map's value under the text key `key` (an attestation object's members).
    public subscript(key: String) -> CBOR? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }
}
