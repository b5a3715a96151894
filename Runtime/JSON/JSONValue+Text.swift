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
        var output = ""
        output.reserveCapacity(64)
        append(to: &output)
        return output
    }

    private func append(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value):
            if !value.isFinite {
                output += "null"
            } else if value.rounded() == value, abs(value) < 9_007_199_254_740_992 {
                output += String(Int64(value))
            } else {
                output += String(value)
            }
        case .string(let value): Self.appendQuoted(value, to: &output)
        case .array(let elements):
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += "," }
                element.append(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            // Ordered by the names' UTF-8 bytes (Unicode scalar order): as deterministic as
            // String's own order, without its Unicode normalisation on every comparison.
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (position, member) in sorted.enumerated() {
                if position > 0 { output += "," }
                Self.appendQuoted(member.key, to: &output)
                output += ":"
                member.value.append(to: &output)
            }
            output += "}"
        }
    }

    /// Appends `value` as a quoted JSON string, escaped per RFC 8259 (for text written by
    /// hand, such as log lines).
    public static func appendQuoted(_ value: String, to output: inout String) {
        output += "\""
        var clean = value.utf8.startIndex
        let utf8 = value.utf8
        var position = utf8.startIndex
        while position != utf8.endIndex {
            let byte = utf8[position]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 {
                output += String(value[clean..<position])
                switch byte {
                case 0x22: output += "\\\""
                case 0x5C: output += "\\\\"
                case 0x0A: output += "\\n"
                case 0x0D: output += "\\r"
                case 0x09: output += "\\t"
                default:
                    let hex = String(byte, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
                clean = utf8.index(after: position)
            }
            position = utf8.index(after: position)
        }
        output += String(value[clean..<utf8.endIndex])
        output += "\""
    }
}
