/// Why text is not the JSON `JSONValue(parsing:)` accepts; offsets are byte offsets.
public enum JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    case unexpectedEnd
    case unexpectedByte(offset: Int)
    case trailingData(offset: Int)
    case invalidNumber(offset: Int)
    case invalidEscape(offset: Int)
    case invalidUnicode(offset: Int)
    case invalidUTF8(offset: Int)
    case controlCharacter(offset: Int)
    case tooDeep(offset: Int)
    case duplicateKey(String, offset: Int)
    /// The text is JSON but not an object, where one is required (`LazyJSONObject`).
    case notAnObject

    public var description: String {
        switch self {
        case .unexpectedEnd: "the JSON ends too early"
        case .unexpectedByte(let offset): "unexpected character at byte \(offset)"
        case .trailingData(let offset): "unexpected data after the JSON value at byte \(offset)"
        case .invalidNumber(let offset): "invalid number at byte \(offset)"
        case .invalidEscape(let offset): "invalid escape at byte \(offset)"
        case .invalidUnicode(let offset): "invalid \\u escape (lone surrogate) at byte \(offset)"
        case .invalidUTF8(let offset): "invalid UTF-8 in the string at byte \(offset)"
        case .controlCharacter(let offset): "unescaped control character at byte \(offset)"
        case .tooDeep(let offset): "nested deeper than \(JSONValue.maximumDepth) levels at byte \(offset)"
        case .duplicateKey(let key, let offset): "duplicate member name \"\(key)\" at byte \(offset)"
        case .notAnObject: "the JSON is not an object"
        }
    }
}
