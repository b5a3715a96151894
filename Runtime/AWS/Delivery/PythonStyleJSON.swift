/// JSON text as Python's `json.dumps` writes it with its defaults, which is how the official
/// Python libraries (Resend's, through `requests`) send a body: members in the order given,
/// `", "` and `": "` between them, and every character outside printable ASCII escaped as
/// `\uXXXX` (lower-case hex, UTF-16 surrogate pairs above U+FFFF). Only what the senders need:
/// an object of strings and arrays of strings.
enum PythonStyleJSON {
    enum Member {
        case string(String)
        case strings([String])
    }

    /// The object with `members`, in order.
    static func object(_ members: [(String, Member)]) -> String {
        let parts = members.map { name, value in
            let text =
                switch value {
                case .string(let string): quoted(string)
                case .strings(let strings): "[" + strings.map(quoted).joined(separator: ", ") + "]"
                }
            return quoted(name) + ": " + text
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// `text` as a JSON string, escaped as `json.dumps(ensure_ascii=True)` escapes it.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }
}
