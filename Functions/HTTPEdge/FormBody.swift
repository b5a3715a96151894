/// An `application/x-www-form-urlencoded` body, as an HTML form posts it: `name=value` pairs
/// joined by `&`, `+` for a space, `%XX` for a byte. A malformed escape leaves its pair out.
public struct FormBody: Sendable {
    /// The fields; a repeated name keeps its first value.
    public let fields: [String: String]

    /// Reads `request`'s body (base64 undone when API Gateway encoded it); at most
    /// `maximumBytes`.
    public init(_ request: HTTPRequest, maximumBytes: Int = 16 * 1024) throws(RequestBodyError) {
        let bytes = try request.bodyBytes()
        guard bytes.count <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
        self.init(bytes: bytes)
    }

    /// Reads form-encoded `bytes`: a body, or a URL's query string (the same encoding).
    public init(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        var fields: [String: String] = [:]
        for pair in bytes.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : []) else {
                continue
            }
            if fields[name] == nil { fields[name] = value }
        }
        self.fields = fields
    }

    public subscript(_ name: String) -> String? { fields[name] }

    /// Undoes `+` and `%XX`; nil for a bad escape or bytes that are not UTF-8.
    static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
