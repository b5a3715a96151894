import Foundation
import GatehouseJSON
import Testing

struct JSONParserTests {
    func parse(_ text: String, rejectingDuplicateKeys: Bool = false) throws(JSONParseError) -> JSONValue {
        try JSONValue(parsing: Array(text.utf8), rejectingDuplicateKeys: rejectingDuplicateKeys)
    }

    @Test(arguments: [
        #"{"a":1,"b":[true,false,null],"c":{"d":"e"},"f":-0.5,"g":1e3,"h":"","i":[]}"#,
        #"  [ 1 , 2.25 , -3E-2 , "x\ny" , {} ]  "#,
        #""\u00e9\ud83d\ude00 \"quoted\" \\ \/ \b\f\r\t""#,
        #"{"user":{"id":"u_1","email":"a@example.com","providers":["email","apple"],"created":1795282720}}"#,
        "12345678901234567890",
        "0",
        "-0.0",
        #""日本語 and emoji 😀""#,
    ])
    func agreesWithFoundationsDecoder(text: String) throws {
        let ours = try parse(text)
        let theirs = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(ours == theirs)
        #expect(try parse(ours.serialized) == ours, "serialized text parses back to the same value")
        try JSONValue.validate(Array(text.utf8), rejectingDuplicateKeys: true)
    }

    @Test(arguments: [
        ("", JSONParseError.unexpectedEnd),
        ("{", .unexpectedEnd),
        (#"{"a":1,}"#, .unexpectedByte(offset: 7)),
        ("[1,]", .unexpectedByte(offset: 3)),
        ("01", .invalidNumber(offset: 0)),
        ("-", .unexpectedEnd),
        ("1.", .invalidNumber(offset: 0)),
        ("1e", .invalidNumber(offset: 0)),
        (".5", .unexpectedByte(offset: 0)),
        ("+1", .unexpectedByte(offset: 0)),
        ("1e400", .invalidNumber(offset: 0)),
        ("NaN", .unexpectedByte(offset: 0)),
        ("tru", .unexpectedEnd),
        ("nul!", .unexpectedByte(offset: 3)),
        ("{} {}", .trailingData(offset: 3)),
        ("\"a\u{01}b\"", .controlCharacter(offset: 2)),
        (#""\x""#, .invalidEscape(offset: 1)),
        (#""\u12G4""#, .invalidEscape(offset: 5)),
        (#""\ud800""#, .invalidUnicode(offset: 1)),
        (#""\udc00""#, .invalidUnicode(offset: 1)),
        (#""\ud800\u0041""#, .invalidUnicode(offset: 1)),
        ("{'a':1}", .unexpectedByte(offset: 1)),
        ("[1 2]", .unexpectedByte(offset: 3)),
    ])
    func refusesWhatIsNotStrictJSON(text: String, error: JSONParseError) {
        #expect(throws: error) { try parse(text) }
        #expect(throws: error, "checking without building refuses it the same way") {
            try JSONValue.validate(Array(text.utf8))
        }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONParseError.invalidUTF8(offset: 1)) {
            try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22])
        }
        #expect(throws: JSONParseError.invalidUTF8(offset: 1)) { try JSONValue.validate([0x22, 0xC3, 0x28, 0x22]) }
        // After an escape, too.
        #expect(throws: JSONParseError.invalidUTF8(offset: 1)) {
            try JSONValue(parsing: [0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22])
        }
        #expect(throws: JSONParseError.invalidUTF8(offset: 1)) {
            try JSONValue.validate([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22])
        }
    }

    /// Strings are scanned eight bytes at a time until a byte needs a look: every kind of such
    /// byte is found at every position of a long string, in building and checking alike.
    @Test func longStringsAreScannedExactlyAtEveryPosition() throws {
        for position in 0..<40 {
            let before = String(repeating: "a", count: position)
            let after = String(repeating: "b", count: 39 - position)
            #expect(try parse("\"\(before)\\\"\(after)\"") == .string(before + "\"" + after))
            #expect(try parse("\"\(before)\\\\\(after)\"") == .string(before + "\\" + after))
            #expect(try parse("\"\(before)é\(after)\"") == .string(before + "é" + after))
            #expect(try parse("\"\(before)\"") == .string(before))
            let control = "\"\(before)\u{1F}\(after)\""
            #expect(throws: JSONParseError.controlCharacter(offset: position + 1)) { try parse(control) }
            #expect(throws: JSONParseError.controlCharacter(offset: position + 1)) {
                try JSONValue.validate(Array(control.utf8))
            }
            var invalid = Array("\"\(before)x\(after)\"".utf8)
            invalid[position + 1] = 0xFF
            #expect(throws: JSONParseError.invalidUTF8(offset: 1)) { try JSONValue(parsing: invalid) }
            #expect(throws: JSONParseError.invalidUTF8(offset: 1)) { try JSONValue.validate(invalid) }
        }
    }

    /// Every byte that must be escaped is escaped wherever it falls in a long string (the writer
    /// skips clean runs a word at a time), and nothing else is: the text parses back to the string.
    @Test func longStringsAreEscapedExactlyAtEveryPosition() throws {
        for position in 0..<40 {
            let before = String(repeating: "a", count: position)
            let after = String(repeating: "é", count: (39 - position) / 2)
            for special in ["\"", "\\", "\u{00}", "\u{1F}", "\n", "\u{7F}", "é", "/"] {
                let text = before + special + after + special
                let written = JSONValue.string(text).serialized
                #expect(try parse(written) == .string(text), "\(position) \(special.unicodeScalars.first!.value)")
                let escapes = written.utf8.filter { $0 == UInt8(ascii: "\\") }.count
                // Two escapes, each one backslash (`\\` itself is two).
                let escaped = special.unicodeScalars.allSatisfy { $0 == "\"" || $0 == "\\" || $0.value < 0x20 }
                let expected = special == "\\" ? 4 : escaped ? 2 : 0
                #expect(escapes == expected, "\(position) \(special.unicodeScalars.first!.value)")
            }
        }
    }

    @Test func nestingIsBounded() throws {
        let deep =
            String(repeating: "[", count: JSONValue.maximumDepth)
            + String(repeating: "]", count: JSONValue.maximumDepth)
        _ = try parse(deep)
        let tooDeep = "[" + deep + "]"
        #expect(throws: JSONParseError.tooDeep(offset: JSONValue.maximumDepth)) { try parse(tooDeep) }
        #expect(throws: JSONParseError.tooDeep(offset: JSONValue.maximumDepth)) {
            try JSONValue.validate(Array(tooDeep.utf8))
        }
        #expect(throws: JSONParseError.self) {
            try JSONValue.validate(Array(String(repeating: "[", count: 1_000_000).utf8))
        }
        // Hostile input far beyond the limit fails cleanly instead of exhausting the stack.
        #expect(throws: JSONParseError.self) { try parse(String(repeating: "[", count: 1_000_000)) }
    }

    @Test func duplicateKeysAreRefusedOnRequest() throws {
        #expect(try parse(#"{"a":1,"a":2}"#) == ["a": 2])
        #expect(throws: JSONParseError.duplicateKey("a", offset: 7)) {
            try parse(#"{"a":1,"a":2}"#, rejectingDuplicateKeys: true)
        }
        try JSONValue.validate(Array(#"{"a":1,"a":2}"#.utf8))
    }

    /// Checking without building finds the same duplicates the dictionary would: spelled with an
    /// escape, canonically equivalent (as `String` compares), nested, and in objects large
    /// enough to be checked with a set.
    @Test(arguments: [
        (#"{"a":1,"\u0061":2}"#, "a", 7),
        ("{\"\u{212A}\":1,\"K\":2}", "K", 9),  // the Kelvin sign is three bytes
        (#"{"x":[{"b":1,"c":2,"b":3}]}"#, "b", 19),
        (
            "{" + (0..<40).map { "\"k\($0)\":\($0)," }.joined() + #""k33":0}"#, "k33",
            1 + (0..<40).map { "\"k\($0)\":\($0),".utf8.count }.reduce(0, +)
        ),
    ])
    func duplicatesAreFoundHoweverTheyAreSpelled(text: String, name: String, offset: Int) {
        #expect(throws: JSONParseError.duplicateKey(name, offset: offset)) {
            try JSONValue.validate(Array(text.utf8), rejectingDuplicateKeys: true)
        }
        #expect(throws: JSONParseError.self) { try parse(text, rejectingDuplicateKeys: true) }
    }

    @Test func serializationIsCompactSortedAndEscaped() {
        let value: JSONValue = [
            "b": [1, 2.5, nil, true], "a": "line\nbreak \"q\" \\ \u{01} / é", "c": .number(1e21), "d": .number(.nan),
        ]
        #expect(
            value.serialized == #"{"a":"line\nbreak \"q\" \\ \u0001 / é","b":[1,2.5,null,true],"c":1e+21,"d":null}"#)
    }

    /// Every control character, the two escaped printables and multi-byte text: each escaped as
    /// RFC 8259 has it, the same through `appendQuoted`, and the text reads back as the value.
    @Test func serializedStringsMatchAppendQuotedAndReadBack() throws {
        let text = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self) + "é€😀\"\\"
        let named: [UInt8: String] = [0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x22: "\\\"", 0x5C: "\\\\"]
        let escaped = text.unicodeScalars.map { scalar -> String in
            let byte = UInt8(truncatingIfNeeded: scalar.value)
            if scalar.value < 0x80, let name = named[byte] { return name }
            if scalar.value < 0x20 { return "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16) }
            return String(scalar)
        }
        #expect(JSONValue.string(text).serialized == "\"" + escaped.joined() + "\"")
        var quoted = ""
        JSONValue.appendQuoted(text, to: &quoted)
        #expect(JSONValue.string(text).serializedBytes == Array(quoted.utf8))
        #expect(JSONValue.string(text).serialized == quoted)
        #expect(try JSONValue(parsing: JSONValue.string(text).serializedBytes) == .string(text))
    }
}
