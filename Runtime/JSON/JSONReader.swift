/// Reads JSON text front to back without building a tree, for a decoder that knows the shape it
/// wants: it asks for each value as it comes, as the type it expects, and skips the rest.
///
/// The text is held to exactly the rules of `JSONValue(parsing:)`: everything, skipped values
/// included, is checked as it is passed, and `read(_:_:)` refuses anything after the one value.
/// Asking for a type the value does not have throws `JSONReader.Mismatch`.
///
/// This is what a payload 2.0 event is read with on every invocation: building the whole
/// `JSONValue` tree first, then the event from it, was a sixth of a warm function's CPU time.
public struct JSONReader {
    private var parser: JSONParser
    private let bytes: UnsafeBufferPointer<UInt8>

    /// A value of another type than the one asked for, at byte `offset`.
    public struct Mismatch: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was asked for: "a string", "an object", ...
        public let expected: String
        public let offset: Int

        public var description: String { "expected \(expected) at byte \(offset)" }
    }

    /// A member's name, valid only inside the `read(_:_:)` body that gives it.
    public struct Name {
        fileprivate let token: JSONParser.StringToken
        fileprivate let bytes: UnsafeBufferPointer<UInt8>

        /// True when the name is `literal` (compared as `String`'s `==` compares).
        public func `is`(_ literal: StaticString) -> Bool {
            // Plain ASCII on both sides is equal exactly when the bytes are; anything else is
            // compared as strings (canonical equivalence can make different bytes equal).
            if token.plain && literal.isASCII {
                let name = UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
                return literal.withUTF8Buffer { JSONParser.sameBytes(name, $0) }
            }
            return (try? text()) == literal.description
        }

        /// The name as a string.
        public func text() throws(JSONParseError) -> String {
            try JSONParser(bytes, rejectDuplicateKeys: false).string(token)
        }
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        parser = JSONParser(bytes, rejectDuplicateKeys: false)
    }

    /// Reads the one JSON value in `bytes` with `body`, then checks that only white space follows.
    public static func read<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (inout JSONReader) throws -> Result
    ) throws -> Result {
        var reader = JSONReader(bytes)
        reader.parser.skipWhitespace()
        let result = try body(&reader)
        try reader.parser.finishDocument()
        return result
    }

    /// Reads the start of the JSON value in `bytes` with `body` and looks no further: for a
    /// reader that stops as soon as it knows what it wants (an event's format from its first
    /// members). What `body` passed over is checked; what follows it is not.
    public static func readPrefix<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (inout JSONReader) throws -> Result
    ) throws -> Result {
        var reader = JSONReader(bytes)
        reader.parser.skipWhitespace()
        return try body(&reader)
    }

    /// True, and past it, when the next value is `null`; false, and still before it, otherwise.
    public mutating func readNull() throws -> Bool {
        guard try parser.peek() == UInt8(ascii: "n") else { return false }
        _ = try parser.parseValue()
        return true
    }

    /// Steps into an object; `nextMember()` then gives its members' names one by one.
    ///
    /// ```swift
    /// try reader.beginObject()
    /// while let name = try reader.nextMember() {
    ///     if name.is("id") { id = try reader.readString() } else { try reader.skipValue() }
    /// }
    /// ```
    public mutating func beginObject() throws {
        try expect(UInt8(ascii: "{"), "an object")
        position = try parser.enterObject() ? .first : .closed
    }

    /// The next member's name, with the reader at its value, which must be read or skipped
    /// before the next call; nil past the end of the object.
    public mutating func nextMember() throws -> Name? {
        guard try advance(another: { parser throws(JSONParseError) in try parser.anotherMember() }) else {
            return nil
        }
        return Name(token: try parser.nextMemberName(), bytes: bytes)
    }

    /// Steps into an array; `nextElement()` then says whether another element follows.
    public mutating func beginArray() throws {
        try expect(UInt8(ascii: "["), "an array")
        position = try parser.enterArray() ? .first : .closed
    }

    /// True, with the reader at the next element (which must be read or skipped before the
    /// next call); false past the end of the array.
    public mutating func nextElement() throws -> Bool {
        try advance(another: { parser throws(JSONParseError) in try parser.anotherElement() })
    }

    /// Where the reader is in the innermost container it stepped into: at its first entry, at
    /// the end of an empty one, or after an entry. A nested container is read whole before its
    /// parent goes on, and always ends `later`, which is then right for the parent too.
    private enum Position {
        case first, closed, later
    }

    private var position = Position.later

    private mutating func advance(
        another: (inout JSONParser) throws(JSONParseError) -> Bool
    ) throws(JSONParseError) -> Bool {
        switch position {
        case .first:
            position = .later
            return true
        case .closed:
            position = .later
            return false
        case .later:
            return try another(&parser)
        }
    }

    /// Reads a string.
    public mutating func readString() throws -> String {
        try expect(UInt8(ascii: "\""), "a string")
        return try parser.parseString()
    }

    /// Reads a string; nil, and past it, for a value of any other type (`readString` looks
    /// before it reads, so the reader is still at that value).
    public mutating func readStringOrSkip() throws -> String? {
        do {
            return try readString()
        } catch is Mismatch {
            try skipValue()
            return nil
        }
    }

    /// Reads `true` or `false`.
    public mutating func readBool() throws -> Bool {
        let start = try parser.peek()
        guard start == UInt8(ascii: "t") || start == UInt8(ascii: "f") else {
            throw Mismatch(expected: "a boolean", offset: parser.offset)
        }
        return try parser.parseValue() == .bool(true)
    }

    /// Reads a number.
    public mutating func readNumber() throws -> Double {
        let start = try parser.peek()
        guard start == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(start) else {
            throw Mismatch(expected: "a number", offset: parser.offset)
        }
        return try parser.parseNumber()
    }

    /// Reads any value, built as `JSONValue(parsing:)` builds it.
    public mutating func readValue() throws -> JSONValue {
        try parser.parseValue()
    }

    /// Checks the next value and steps past it, building nothing.
    public mutating func skipValue() throws {
        try parser.skipValue()
    }

    private func expect(_ start: UInt8, _ expected: String) throws {
        guard try parser.peek() == start else { throw Mismatch(expected: expected, offset: parser.offset) }
    }
}
