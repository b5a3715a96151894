extension JSONValue {
    /// How deep arrays and objects may nest: hostile input cannot exhaust the stack.
    public static let maximumDepth = 512

    /// Parses JSON text strictly (see `JSONParseError`). With `rejectingDuplicateKeys`, an
    /// object that names a member twice is refused (JOSE requires it); otherwise the last wins.
    public init(parsing bytes: some Sequence<UInt8>, rejectingDuplicateKeys: Bool = false) throws(JSONParseError) {
        // Arrays and native strings' UTF-8 views are parsed where they are; anything else is
        // copied once.
        let parsed = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) in
                try JSONValue(parsing: buffer, rejectingDuplicateKeys: rejectingDuplicateKeys)
            }
        }
        if let parsed {
            self = try parsed.get()
            return
        }
        self = try Array(bytes).withUnsafeBufferPointer { buffer throws(JSONParseError) in
            try JSONValue(parsing: buffer, rejectingDuplicateKeys: rejectingDuplicateKeys)
        }
    }

    /// Checks that `bytes` is JSON text that `init(parsing:rejectingDuplicateKeys:)` would
    /// accept, without building the value.
    public static func validate(_ bytes: [UInt8], rejectingDuplicateKeys: Bool = false) throws(JSONParseError) {
        try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in
                var parser = JSONParser(buffer, rejectDuplicateKeys: rejectingDuplicateKeys)
                try parser.checkDocument()
            }
        }.get()
    }

    /// Parses JSON text in place, without copying it (e.g. straight from a database column).
    public init(parsing buffer: UnsafeBufferPointer<UInt8>, rejectingDuplicateKeys: Bool = false) throws(JSONParseError)
    {
        var parser = JSONParser(buffer, rejectDuplicateKeys: rejectingDuplicateKeys)
        self = try parser.parseDocument()
    }

    /// Compact JSON text, members sorted by name's UTF-8 bytes (so equal values give equal text). Whole
    /// numbers below 2^53 print without a fraction; a non-finite number, which JSON cannot
    /// hold, prints as `null`.
    public var serialized: String {
        String(decoding: serializedBytes, as: UTF8.self)
    }

    /// `serialized` as UTF-8 bytes, written as bytes: an event or a response goes out as bytes,
    /// and appending to a `String` piece by piece cost twice as much.
    public var serializedBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .number(let value):
            if !value.isFinite {
                output.append(contentsOf: "null".utf8)
            } else if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
                output.append(contentsOf: String(Int64(value)).utf8)
            } else {
                output.append(contentsOf: String(value).utf8)
            }
        case .string(let value): Self.writeQuoted(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let sorted = members.sorted { Self.memberPrecedes($0.key, $1.key) }
            for (position, member) in sorted.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeQuoted(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The order of an object's members in `serializedBytes` (and `JSONWriter.sortedObject`): by
    /// the names' UTF-8 bytes (Unicode scalar order), as deterministic as String's own order,
    /// without its Unicode normalisation on every comparison.
    static func memberPrecedes(_ first: String, _ second: String) -> Bool {
        first.utf8.lexicographicallyPrecedes(second.utf8)
    }

    /// `value` as a quoted JSON string, escaped per RFC 8259: the one escaping routine, behind
    /// `serializedBytes`, `JSONWriter` and `appendQuoted`.
    static func writeQuoted(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var clean = 0
            var position = 0
            while position < bytes.count {
                position = PlainRun.end(in: bytes, from: position, stoppingAtNonASCII: false)
                guard position < bytes.count else { break }
                let byte = bytes[position]
                guard byte == 0x22 || byte == 0x5C || byte < 0x20 else {
                    position += 1
                    continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<position]))
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: output.append(UInt8(ascii: "\""))
                case 0x5C: output.append(UInt8(ascii: "\\"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    output.append(contentsOf: "u00".utf8)
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0xF)])
                }
                position += 1
                clean = position
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends `value` as a quoted JSON string, escaped per RFC 8259 (for text written by
    /// hand, such as log lines).
    public static func appendQuoted(_ value: String, to output: inout String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 2)
        writeQuoted(value, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }
}
