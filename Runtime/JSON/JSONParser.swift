#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict RFC 8259 parser into `JSONValue`, working on bytes: no `Codable` round trip, no
/// thrown-and-caught type probing, no intermediate Foundation objects. It can also check a
/// value without building it (`skipValue`), with exactly the same rules, which is what
/// `LazyJSONObject` does with everything it is not asked for.
///
/// Refuses: invalid UTF-8, control characters in strings, invalid escapes and lone
/// surrogates, leading zeros, numbers outside `Double`'s range, trailing data, nesting deeper
/// than `maximumDepth`, and (on request) duplicate object member names.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private let rejectDuplicateKeys: Bool
    /// The names of every object still open while skipping, innermost last.
    private var skippedNames: [StringToken] = []

    /// An object member: its name, and where its value is in the text.
    typealias Member = (name: StringToken, value: Range<Int>)

    /// Where a string is in the text (between its quotes) and what it needs to be decoded.
    struct StringToken: Sendable {
        let start: Int
        let end: Int
        let ascii: Bool
        let escaped: Bool
        /// ASCII without escapes: the bytes are the string, and compare as it does.
        var plain: Bool { ascii && !escaped }
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, rejectDuplicateKeys: Bool) {
        self.bytes = bytes
        self.rejectDuplicateKeys = rejectDuplicateKeys
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw .trailingData(offset: index) }
        return value
    }

    /// Checks the one value at the current position and the end of the text, building nothing.
    mutating func checkDocument() throws(JSONParseError) {
        skipWhitespace()
        try skipValue()
        skipWhitespace()
        guard index == bytes.count else { throw .trailingData(offset: index) }
    }

    /// The top-level members of an object document, checked in full: (name, where its value is).
    mutating func scanTopLevelObject() throws(JSONParseError) -> [Member]? {
        skipWhitespace()
        guard try peek() == UInt8(ascii: "{") else {
            try skipValue()
            skipWhitespace()
            guard index == bytes.count else { throw .trailingData(offset: index) }
            return nil
        }
        let members = try objectMembers()
        skipWhitespace()
        guard index == bytes.count else { throw .trailingData(offset: index) }
        return members
    }

    /// The members of the object at `range`, which `skipValue` already accepted.
    mutating func members(ofObjectAt range: Range<Int>) throws(JSONParseError) -> [Member] {
        index = range.lowerBound
        return try objectMembers()
    }

    /// Checks the object at the current position and lists its members.
    private mutating func objectMembers() throws(JSONParseError) -> [Member] {
        var members: [Member] = []
        members.reserveCapacity(8)
        try skipObject { name, value in members.append((name, value)) }
        return members
    }

    /// Parses the value at `range`, which `skipValue` already accepted.
    mutating func parseValue(at range: Range<Int>) throws(JSONParseError) -> JSONValue {
        index = range.lowerBound
        return try parseValue()
    }

    /// The string a token stands for.
    func string(_ token: StringToken) throws(JSONParseError) -> String {
        let run = UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
        if token.escaped { return try Self.unescaped(run, offset: token.start) }
        return token.ascii ? String(decoding: run, as: UTF8.self) : try Self.validated(run, offset: token.start)
    }

    /// True when two checked names stand for the same string (as `String`'s `==`, which a
    /// dictionary uses, decides).
    func sameName(_ first: StringToken, _ second: StringToken) throws(JSONParseError) -> Bool {
        if first.plain && second.plain { return Self.sameBytes(nameBytes(first), nameBytes(second)) }
        return try string(first) == string(second)
    }

    /// The bytes between a string's quotes.
    func nameBytes(_ token: StringToken) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
    }

    /// Byte-for-byte equality, by length first and then memcmp.
    static func sameBytes(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        first.count == second.count
            && (first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
    }

    // MARK: Reading in order, for `JSONReader`

    /// Where the parser is: the byte offset of the next value, for error messages.
    var offset: Int { index }

    /// Checks that nothing but white space follows the value just read.
    mutating func finishDocument() throws(JSONParseError) {
        skipWhitespace()
        guard index == bytes.count else { throw .trailingData(offset: index) }
    }

    /// Steps into the object at the current position (which `peek` showed is one); true
    /// when it has members.
    mutating func enterObject() throws(JSONParseError) -> Bool {
        try !open(closingWith: UInt8(ascii: "}"))
    }

    /// Steps into the array at the current position; true when it has elements, with the
    /// position at the first.
    mutating func enterArray() throws(JSONParseError) -> Bool {
        try !open(closingWith: UInt8(ascii: "]"))
    }

    /// The name of the next member, checked (UTF-8 included), with the position at its value.
    mutating func nextMemberName() throws(JSONParseError) -> StringToken {
        try memberName(validatingUTF8: true).token
    }

    /// After a member: true when another follows, false past the closing brace.
    mutating func anotherMember() throws(JSONParseError) -> Bool {
        try !closes(with: UInt8(ascii: "}"))
    }

    /// After an element: true when another follows (the position at it), false past the
    /// closing bracket.
    mutating func anotherElement() throws(JSONParseError) -> Bool {
        guard try !closes(with: UInt8(ascii: "]")) else { return false }
        skipWhitespace()
        return true
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func peek() throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw .unexpectedEnd }
        return bytes[index]
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw .unexpectedByte(offset: index)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw .unexpectedEnd }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw .unexpectedByte(offset: index + offset)
        }
        index += count
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= JSONValue.maximumDepth else { throw .tooDeep(offset: index) }
    }

    /// Steps into the object or array at the current position; true when it is empty (and
    /// already stepped out of again).
    private mutating func open(closingWith close: UInt8) throws(JSONParseError) -> Bool {
        try enter()
        index += 1
        skipWhitespace()
        guard try peek() == close else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After a member or element: false past a comma (another one follows), true past the
    /// closing bracket.
    private mutating func closes(with close: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch try peek() {
        case UInt8(ascii: ","):
            index += 1
            return false
        case close:
            index += 1
            depth -= 1
            return true
        default: throw .unexpectedByte(offset: index)
        }
    }

    /// A member's name and the colon after it; the name's offset is for error messages.
    private mutating func memberName(validatingUTF8: Bool) throws(JSONParseError) -> (token: StringToken, offset: Int) {
        skipWhitespace()
        guard try peek() == UInt8(ascii: "\"") else { throw .unexpectedByte(offset: index) }
        let offset = index
        let token = try scanString(validatingUTF8: validatingUTF8)
        skipWhitespace()
        guard try peek() == UInt8(ascii: ":") else { throw .unexpectedByte(offset: index) }
        index += 1
        skipWhitespace()
        return (token, offset)
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        if try open(closingWith: UInt8(ascii: "}")) { return .object([:]) }
        // Room for eight members from the start: growing a dictionary member by member
        // reallocated and rehashed it several times, most of the cost of a small object.
        var members = [String: JSONValue](minimumCapacity: 8)
        repeat {
            let (name, offset) = try memberName(validatingUTF8: false)
            let key = try string(name)
            // Without `rejectDuplicateKeys`, a repeated name keeps its last value.
            if members.updateValue(try parseValue(), forKey: key) != nil, rejectDuplicateKeys {
                throw .duplicateKey(key, offset: offset)
            }
        } while try !closes(with: UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        if try open(closingWith: UInt8(ascii: "]")) { return .array([]) }
        var elements: [JSONValue] = []
        repeat {
            skipWhitespace()
            elements.append(try parseValue())
        } while try !closes(with: UInt8(ascii: "]"))
        return .array(elements)
    }

    mutating func skipValue() throws(JSONParseError) {
        switch try peek() {
        case UInt8(ascii: "{"): try skipObject { _, _ in }
        case UInt8(ascii: "["): try skipArray()
        case UInt8(ascii: "\""): _ = try scanString()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parseNumber()
        default: throw .unexpectedByte(offset: index)
        }
    }

    /// Checks an object, reporting each member's name and where its value is.
    private mutating func skipObject(
        _ member: (StringToken, Range<Int>) -> Void
    ) throws(JSONParseError) {
        if try open(closingWith: UInt8(ascii: "}")) { return }
        let first = skippedNames.count
        // Names are compared pairwise while there are few; a large object switches to a set.
        var names: Set<String>?
        repeat {
            let (name, nameOffset) = try memberName(validatingUTF8: true)
            if rejectDuplicateKeys {
                if names == nil, skippedNames.count - first == 32 {
                    var set = Set<String>()
                    for earlier in skippedNames[first...] { set.insert(try string(earlier)) }
                    names = set
                }
                if names != nil {
                    let text = try string(name)
                    if names?.insert(text).inserted == false { throw .duplicateKey(text, offset: nameOffset) }
                } else {
                    for earlier in skippedNames[first...] where try sameName(earlier, name) {
                        throw .duplicateKey(try string(name), offset: nameOffset)
                    }
                    if skippedNames.capacity == 0 { skippedNames.reserveCapacity(8) }
                    skippedNames.append(name)
                }
            }
            let valueStart = index
            try skipValue()
            member(name, valueStart..<index)
        } while try !closes(with: UInt8(ascii: "}"))
        skippedNames.removeSubrange(first...)
    }

    private mutating func skipArray() throws(JSONParseError) {
        if try open(closingWith: UInt8(ascii: "]")) { return }
        repeat {
            skipWhitespace()
            try skipValue()
        } while try !closes(with: UInt8(ascii: "]"))
    }

    mutating func parseString() throws(JSONParseError) -> String {
        try string(scanString(validatingUTF8: false))
    }

    /// Checks the string at the current position (escapes, control characters, and UTF-8
    /// unless the caller decodes it next, which checks that anyway) and moves past it.
    private mutating func scanString(validatingUTF8: Bool = true) throws(JSONParseError) -> StringToken {
        index += 1  // the opening quote
        let start = index
        var ascii = true
        var escaped = false
        // Word at a time where the string starts and after each escape; byte at a time from the
        // first word that holds anything to look at (for most strings, the closing quote).
        index = PlainRun.end(in: bytes, from: index, stoppingAtNonASCII: true)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let token = StringToken(start: start, end: index, ascii: ascii, escaped: escaped)
                if !ascii && validatingUTF8 {
                    _ = try Self.validated(UnsafeBufferPointer(rebasing: bytes[start..<index]), offset: start)
                }
                index += 1
                return token
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 1
                guard index < bytes.count else { throw .unexpectedEnd }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    _ = try unicodeEscape()
                default: throw .invalidEscape(offset: index - 1)
                }
                index = PlainRun.end(in: bytes, from: index, stoppingAtNonASCII: true)
                continue
            }
            if byte < 0x20 { throw .controlCharacter(offset: index) }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        throw .unexpectedEnd
    }

    /// The text of a checked string that has escapes.
    private static func unescaped(_ run: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONParseError) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(run.count)
        var reader = JSONParser(run, rejectDuplicateKeys: false)
        while reader.index < run.count {
            let byte = run[reader.index]
            reader.index += 1
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                continue
            }
            let escape = run[reader.index]
            reader.index += 1
            switch escape {
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try reader.unicodeEscape()
                decoded.append(contentsOf: String(Character(scalar)).utf8)
            default: decoded.append(escape)  // `"`, `\` and `/` stand for themselves
            }
        }
        return try decoded.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            try validated(buffer, offset: offset)
        }
    }

    /// After `\u`: four hex digits, or a surrogate pair `\uD8xx\uDCxx`; the scalar.
    private mutating func unicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let escapeOffset = index - 2
        var scalar = try hex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 2 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw .invalidUnicode(offset: escapeOffset)
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw .invalidUnicode(offset: escapeOffset) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw .invalidUnicode(offset: escapeOffset)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw .invalidUnicode(offset: escapeOffset) }
        return unicode
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .unexpectedEnd }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw .invalidEscape(offset: index)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw .unexpectedEnd }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw .invalidNumber(offset: start)
            }
        } else if digits() == 0 {
            throw .invalidNumber(offset: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw .invalidNumber(offset: start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw .invalidNumber(offset: start) }
        }
        if let whole = Self.smallInteger(UnsafeBufferPointer(rebasing: bytes[start..<index])) { return whole }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw .invalidNumber(offset: start) }
        return number
    }

    /// The value of an already validated number written as at most 15 digits with no fraction
    /// or exponent (so exactly representable), without going through text; nil otherwise.
    /// Timestamps, counters and sizes are nearly all of this kind.
    private static func smallInteger(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = negative ? UnsafeBufferPointer(rebasing: text.dropFirst()) : text
        guard digits.count <= 15 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
        }
        // -0 must stay negative zero, as Double("-0") is.
        return negative ? -Double(value) : Double(value)
    }

    private static func validated(_ buffer: UnsafeBufferPointer<UInt8>, offset: Int) throws(JSONParseError) -> String {
        guard let text = String(validating: buffer, as: UTF8.self) else { throw .invalidUTF8(offset: offset) }
        return text
    }
}
