import GatehouseJSON
import Testing

struct JSONReaderTests {
    /// Reads `text` with `body` over its bytes.
    func read<T>(_ text: String, _ body: (inout JSONReader) throws -> T) throws -> T {
        try Array(text.utf8).withUnsafeBufferPointer { bytes in try JSONReader.read(bytes, body) }
    }

    /// Every value read as what was asked for, in the order of the text, equal to what the full
    /// parse builds for it.
    @Test func readsEachValueAsAskedFor() throws {
        let text = #" {"s": "Ada \u00e9", "n": -12.5e1, "b": false, "z": null, "l": ["x", "y"], "v": {"k": [1, {}]}} "#
        let parsed = try JSONValue(parsing: Array(text.utf8))
        var seen: [String: JSONValue] = [:]
        try read(text) { reader in
            try reader.beginObject()
            while let name = try reader.nextMember() {
                let key = try name.text()
                if name.is("s") {
                    seen[key] = .string(try reader.readString())
                } else if name.is("n") {
                    seen[key] = .number(try reader.readNumber())
                } else if name.is("b") {
                    seen[key] = .bool(try reader.readBool())
                } else if name.is("z") {
                    #expect(try reader.readNull())
                    seen[key] = .null
                } else if name.is("l") {
                    var list: [JSONValue] = []
                    try reader.beginArray()
                    while try reader.nextElement() {
                        #expect(try !reader.readNull())
                        list.append(.string(try reader.readString()))
                    }
                    seen[key] = .array(list)
                } else {
                    seen[key] = try reader.readValue()
                }
            }
        }
        #expect(JSONValue.object(seen) == parsed)
    }

    /// Asking for another type throws a mismatch naming the byte, and moves nothing.
    @Test(
        arguments: [
            ("\"text\"", "a number"), ("12", "a string"), ("null", "a boolean"), ("[1]", "an object"),
            ("{}", "an array"),
        ])
    func anotherTypeIsAMismatch(text: String, expected: String) throws {
        let mismatch = #expect(throws: JSONReader.Mismatch.self) {
            try read(" " + text) { reader in
                switch expected {
                case "a number": _ = try reader.readNumber()
                case "a string": _ = try reader.readString()
                case "a boolean": _ = try reader.readBool()
                case "an object": try reader.beginObject()
                default: try reader.beginArray()
                }
            }
        }
        #expect(mismatch?.expected == expected)
        #expect(mismatch?.offset == 1)
        #expect(mismatch?.description == "expected \(expected) at byte 1")
    }

    /// Skipped values are checked with the full parser's rules, and nothing may follow the one
    /// value: the same errors `JSONValue(parsing:)` gives.
    @Test(arguments: [
        #"{"a": [1, tru]}"#, #"{"a": 01}"#, #"{"a": "\q"}"#, #"{"a": 1} x"#, #"{"a": 1"#, "[" + #"{"a":"#,
    ])
    func skippingChecksLikeTheFullParse(text: String) throws {
        let full = #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array(text.utf8)) }
        let skipped = #expect(throws: JSONParseError.self) {
            try read(text) { reader in try reader.skipValue() }
        }
        #expect(skipped == full)
    }

    @Test func nestingBeyondTheLimitIsRefusedWhileSkipping() throws {
        let deep =
            String(repeating: "[", count: JSONValue.maximumDepth + 1)
            + String(repeating: "]", count: JSONValue.maximumDepth + 1)
        let text = #"{"a":"# + deep + "}"
        let full = #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array(text.utf8)) }
        let skipped = #expect(throws: JSONParseError.self) {
            try read(text) { reader in
                try reader.beginObject()
                while try reader.nextMember() != nil { try reader.skipValue() }
            }
        }
        // The object is the first level: the 512th bracket, at byte 5 + 511, is one too many.
        #expect(full == .tooDeep(offset: 516))
        #expect(skipped == full)
    }

    /// Names compare as strings do: escaped and canonically equivalent names match.
    @Test func namesMatchTheWayStringsCompare() throws {
        var matches: [Bool] = []
        try read(#"{"\u0061b": 1, "caf\u00e9": 2, "cafe\u0301": 3, "": 4, "abc": 5}"#) { reader in
            try reader.beginObject()
            while let name = try reader.nextMember() {
                matches.append(name.is("ab") || name.is("café") || name.is(""))
                try reader.skipValue()
            }
        }
        #expect(matches == [true, true, true, true, false])
    }

    /// Empty containers, nested ones included, end at once, and the parent goes on after them.
    @Test func emptyAndNestedContainersEndWhereTheyShould() throws {
        var names: [String] = []
        var elements = 0
        try read(#"{"a": {}, "b": [], "c": [[], [{}], {"d": [1]}], "e": 5}"#) { reader in
            try reader.beginObject()
            while let name = try reader.nextMember() {
                names.append(try name.text())
                if name.is("a") {
                    try reader.beginObject()
                    #expect(try reader.nextMember() == nil)
                } else if name.is("b") {
                    try reader.beginArray()
                    #expect(try !reader.nextElement())
                } else if name.is("c") {
                    try reader.beginArray()
                    while try reader.nextElement() {
                        elements += 1
                        try reader.skipValue()
                    }
                } else {
                    #expect(try reader.readNumber() == 5)
                }
            }
        }
        #expect(names == ["a", "b", "c", "e"])
        #expect(elements == 3)
    }
}
