import GatehouseJSON
import Testing

/// The writer's text is the text `serializedBytes` gives for the same members (in the order they
/// were written), and reads back as the value.
struct JSONWriterTests {
    @Test func nestedMembersAndCommas() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("a", "line\nbreak \"q\" \\ \u{01} é")
        writer.name("b")
        writer.beginArray()
        writer.string("x")
        writer.beginObject()
        writer.endObject()
        writer.beginArray()
        writer.endArray()
        writer.bool(false)
        writer.value([1, 2.5, nil])
        writer.endArray()
        writer.name("c")
        writer.object(["k": "v"])
        writer.name("d")
        writer.value(.number(1_583_348_638_390))
        writer.endObject()
        let expected: JSONValue = [
            "a": "line\nbreak \"q\" \\ \u{01} é", "b": ["x", [:], [], false, [1, 2.5, nil]], "c": ["k": "v"],
            "d": .number(1_583_348_638_390),
        ]
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected.serialized)
        #expect(try JSONValue(parsing: writer.bytes) == expected)
    }

    @Test func anEmptyObjectAndOneMember() {
        var empty = JSONWriter()
        empty.beginObject()
        empty.endObject()
        #expect(empty.bytes == Array("{}".utf8))
        var one = JSONWriter()
        one.object(["only": ""])
        #expect(one.bytes == Array(#"{"only":""}"#.utf8))
    }
}
