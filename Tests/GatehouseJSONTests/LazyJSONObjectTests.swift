import GatehouseJSON
import Testing

struct LazyJSONObjectTests {
    let text =
        #"{"iss":"https://issuer.test","aud":["demo","other"],"exp":1800000300,"data":{"name":"Ada \u00e9","n":[1,2.5,null,true]},"caf\u00e9":"x","empty":{}}"#

    @Test func membersDecodeToWhatTheFullParseGives() throws {
        let object = try LazyJSONObject(parsing: Array(text.utf8))
        let parsed = try JSONValue(parsing: Array(text.utf8), rejectingDuplicateKeys: true)
        #expect(object.count == 6)
        #expect(JSONValue.object(object.dictionary) == parsed)
        #expect(object.names == ["iss", "aud", "exp", "data", "café", "empty"])
        for name in object.names { #expect(object[name] == parsed[name], "\(name)") }
        #expect(object["data"]?["name"] == "Ada é")
        #expect(object["exp"] == 1_800_000_300)
        let data = try #require(object.object("data"))
        #expect(data.names == ["name", "n"])
        #expect(data["n"] == [1, 2.5, nil, true])
        #expect(JSONValue.object(data.dictionary) == parsed["data"])
        #expect(data.object("n") == nil, "an array is not an object")
        #expect(object.object("iss") == nil)
        #expect(object.object("missing") == nil)
        #expect(try #require(object.object("empty")).count == 0)
    }

    @Test func lookupsMatchTheWayStringsCompare() throws {
        let object = try LazyJSONObject(parsing: Array(text.utf8))
        #expect(object["café"] == "x")  // an escaped name found by its text
        #expect(object["cafe\u{301}"] == "x")  // canonically equivalent, as a dictionary key would be
        #expect(object["missing"] == nil)
        #expect(!object.contains("ISS"))
        #expect(object.contains("empty"))
        #expect(object["empty"] == [:])
        let emptyName = try LazyJSONObject(parsing: Array(#"{"":1,"a":2}"#.utf8))
        #expect(emptyName[""] == 1)
        #expect(emptyName["a"] == 2)
    }

    @Test(arguments: [
        (#"[1,2]"#, JSONParseError.notAnObject),
        (#""text""#, .notAnObject),
        (#"{"a":1} x"#, .trailingData(offset: 8)),
        (#"{"a":1,"a":2}"#, .duplicateKey("a", offset: 7)),
        (#"{"a":{"b":1,"b":2}}"#, .duplicateKey("b", offset: 12)),
        (#"{"a":"\x"}"#, .invalidEscape(offset: 6)),
        (#"{"a":01}"#, .invalidNumber(offset: 5)),
        ("", .unexpectedEnd),
    ])
    func refusesWhatTheParserRefuses(text: String, error: JSONParseError) {
        #expect(throws: error) { try LazyJSONObject(parsing: Array(text.utf8)) }
    }
}
