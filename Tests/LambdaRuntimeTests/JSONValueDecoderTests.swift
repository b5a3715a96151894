import Foundation
import Testing

@testable import LambdaRuntime

/// The decoder's paths that API Gateway events do not reach (those are compared in
/// EventDecodingTests), each against Foundation's JSONDecoder.
struct JSONValueDecoderTests {
    struct Kinds: Decodable, Equatable {
        var data: Data
        var url: URL
        var ratio: Float
        var small: UInt8
        var list: [Int?]
        var nested: [String: [Bool]]
    }

    /// Three integers read one by one from an array, so a short array runs out mid-way.
    struct Triple: Decodable, Equatable {
        var values: [Int]
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            values = try (0..<3).map { _ in try container.decode(Int.self) }
        }
    }

    static let good =
        #"{"data":"aGVsbG8=","url":"https://example.com/a?b=1","ratio":0.5,"small":255,"list":[1,null,3],"#
        + #""nested":{"a":[true,false],"b":[]}}"#

    @Test func base64DataURLsFloatsAndNestedCollectionsDecodeAsWithJSONDecoder() throws {
        let decoded = try DecoderComparison.ours(Kinds.self, Self.good.utf8)
        #expect(decoded == (try DecoderComparison.foundation(Kinds.self, Self.good.utf8)))
        #expect(decoded.data == Data("hello".utf8))
        #expect(decoded.list == [1, nil, 3])
    }

    @Test(arguments: [
        (#""data":"aGVsbG8=""#, #""data":"not base64!""#, "dataCorrupted data"),
        (#""small":255"#, #""small":256"#, "dataCorrupted small"),
        (#""ratio":0.5"#, #""ratio":1e39"#, "dataCorrupted ratio"),
        (#""list":[1,null,3]"#, #""list":[1,"2",3]"#, "typeMismatch list.[1]"),
        // A null Bool is a type mismatch to JSONDecoder; a null of any other type, a missing value.
        (#""nested":{"a":[true,false],"b":[]}"#, #""nested":{"a":[true,null]}"#, "typeMismatch nested.a.[1]"),
        (#""url":"https://example.com/a?b=1""#, #""url":null"#, "valueNotFound url"),
        (#""url":"https://example.com/a?b=1""#, #""url":7"#, "typeMismatch url"),
    ])
    func badValuesFailWithTheirPath(good: String, bad: String, expected: String) throws {
        let text = Self.good.replacingOccurrences(of: good, with: bad)
        #expect(text != Self.good)
        let ours = #expect(throws: DecodingError.self) { try DecoderComparison.ours(Kinds.self, text.utf8) }
        #expect(ours.map(DecoderComparison.shape) == expected)
        // Foundation agrees on the case; for numbers that do not fit, it does not name the member.
        let foundation = #expect(throws: DecodingError.self) { try DecoderComparison.foundation(Kinds.self, text.utf8) }
        #expect(
            foundation.map(DecoderComparison.shape)?.split(separator: " ").first
                == ours.map(DecoderComparison.shape)?.split(separator: " ").first
        )
    }

    @Test func anArrayThatEndsEarlyIsValueNotFoundAtTheMissingIndex() throws {
        #expect(try DecoderComparison.ours(Triple.self, "[1,2,3]".utf8) == Triple(values: [1, 2, 3]))
        let ours = #expect(throws: DecodingError.self) { try DecoderComparison.ours(Triple.self, "[1,2]".utf8) }
        let foundation = #expect(throws: DecodingError.self) {
            try DecoderComparison.foundation(Triple.self, "[1,2]".utf8)
        }
        #expect(ours.map(DecoderComparison.shape) == "valueNotFound [2]")
        #expect(foundation.map(DecoderComparison.shape) == ours.map(DecoderComparison.shape))
    }
}

extension JSONValueDecoderTests.Triple {
    init(values: [Int]) { self.values = values }
}
