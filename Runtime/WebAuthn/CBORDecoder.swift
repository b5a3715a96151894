/// A bounded CBOR decoder (RFC 8949) for what authenticators send: definite lengths only, at
/// most `maximumDepth` levels and `maximumItems` items, every length checked against the bytes
/// left before anything is allocated, so hostile bytes cost little and never crash it.
public struct CBORDecoder {
    /// The deepest nesting accepted (an attestation object is three levels deep).
    public static let maximumDepth = 8
    /// The most items in one decode.
    public static let maximumItems = 512

    private let bytes: [UInt8]
    private var index = 0
    private var items = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one item `bytes` holds, and nothing after it.
    public static func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
        let (item, length) = try decodePrefix(bytes)
        guard length == bytes.count else { throw .trailingBytes(at: length) }
        return item
    }

    /// The item `bytes` begins with, and how many bytes it took (the rest is the caller's: the
    /// extensions after a credential's COSE key in authenticator data).
    public static func decodePrefix(_ bytes: [UInt8]) throws(CBORError) -> (CBOR, Int) {
        var decoder = CBORDecoder(bytes)
        let item = try decoder.item(depth: 0)
        return (item, decoder.index)
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBOR {
        guard depth <= Self.maximumDepth else { throw .tooLarge("nested deeper than \(Self.maximumDepth)") }
        items += 1
        guard items <= Self.maximumItems else { throw .tooLarge("more than \(Self.maximumItems) items") }
        let start = index
        let initial = try byte()
        let major = initial >> 5
        let argument = try self.argument(initial & 0x1F, major: major, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(argument))
        case 3:
            guard let text = String(validating: try take(argument), as: UTF8.self) else {
                throw .invalidText(at: start)
            }
            return .text(text)
        case 4: return .array(try elements(argument, depth: depth))
        case 5: return .map(try entries(argument, depth: depth, at: start))
        case 6: throw .unsupported("a tag", at: start)
        default: return try simple(argument, at: start)
        }
    }

    /// The argument of an initial byte's additional information `info`: the value itself below
    /// 24, else the 1, 2, 4 or 8 bytes after it.
    private mutating func argument(_ info: UInt8, major: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24, 25, 26, 27:
            guard major != 7 || info == 24 else { throw .unsupported("a float", at: start) }
            var value: UInt64 = 0
            for _ in 0..<(1 << (info - 24)) { value = value << 8 | UInt64(try byte()) }
            return value
        case 31: throw .unsupported("an indefinite length", at: start)
        default: throw .unsupported("reserved additional information \(info)", at: start)
        }
    }

    private mutating func elements(_ count: UInt64, depth: Int) throws(CBORError) -> [CBOR] {
        // Every element takes a byte at least: a count beyond the bytes left is a lie.
        guard count <= UInt64(bytes.count - index) else { throw .truncated }
        var result: [CBOR] = []
        result.reserveCapacity(Int(count))
        for _ in 0..<count { result.append(try item(depth: depth + 1)) }
        return result
    }

    private mutating func entries(_ count: UInt64, depth: Int, at start: Int) throws(CBORError) -> [CBOR.Entry] {
        guard count <= UInt64(bytes.count - index) / 2 else { throw .truncated }
        var result: [CBOR.Entry] = []
        result.reserveCapacity(Int(count))
        for _ in 0..<count {
            let key = try item(depth: depth + 1)
            guard !result.contains(where: { $0.key == key }) else { throw .duplicateKey(at: start) }
            result.append(CBOR.Entry(key, try item(depth: depth + 1)))
        }
        return result
    }

    private func simple(_ value: UInt64, at start: Int) throws(CBORError) -> CBOR {
        switch value {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        default: throw .unsupported("the simple value \(value)", at: start)
        }
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard index < bytes.count else { throw .truncated }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func take(_ count: UInt64) throws(CBORError) -> [UInt8] {
        guard count <= UInt64(bytes.count - index) else { throw .truncated }
        let end = index + Int(count)
        defer { index = end }
        return Array(bytes[index..<end])
    }
}
