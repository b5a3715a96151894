import WebAuthn

/// The tests' CBOR encoder (the server never encodes CBOR): the shortest form of every
/// argument, as CTAP2's canonical encoding writes it.
public enum CBOREncoder {
    public static func encode(_ item: CBOR) -> [UInt8] {
        switch item {
        case .unsigned(let value): return head(0, value)
        case .negative(let value): return head(1, value)
        case .bytes(let bytes): return head(2, UInt64(bytes.count)) + bytes
        case .text(let text): return head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): return head(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let entries):
            return head(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        case .bool(let value): return [value ? 0xF5 : 0xF4]
        case .null: return [0xF6]
        }
    }

    public static func head(_ major: UInt8, _ value: UInt64) -> [UInt8] {
        let top = major << 5
        switch value {
        case 0..<24: return [top | UInt8(value)]
        case 24...0xFF: return [top | 24, UInt8(value)]
        case 0x100...0xFFFF: return [top | 25] + bigEndian(value, 2)
        case 0x10000...0xFFFF_FFFF: return [top | 26] + bigEndian(value, 4)
        default: return [top | 27] + bigEndian(value, 8)
        }
    }

    public static func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// An integer as CBOR.
    public static func int(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }
}
