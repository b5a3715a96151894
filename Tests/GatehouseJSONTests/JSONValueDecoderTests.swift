import Foundation
import GatehouseJSON
import Testing

/// The decoder's paths that API Gateway events do not reach (those are compared in
/// LambdaRuntimeTests' EventDecodingTests), each against Foundation's JSONDecoder.
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

    static func ours<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try Array(text.utf8).withUnsafeBufferPointer { try JSONValueDecoder().decode(type, from: $0) }
    }

    static func foundation<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// Case and path of a decoding error, e.g. `typeMismatch list.[1]`.
    static func shape(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not a DecodingError: \(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .typeMismatch(_, let context): return "typeMismatch \(path(context.codingPath))"
        case .valueNotFound(_, let context): return "valueNotFound \(path(context.codingPath))"
        case .keyNotFound(let key, let context): return "keyNotFound \(path(context.codingPath + [key]))"
        case .dataCorrupted(let context): return "dataCorrupted \(path(context.codingPath))"
        @unknown default: return "\(error)"
        }
    }

    static let good =
        #"{"data":"aGVsbG8=","url":"https://example.com/a?b=1","ratio":0.5,"small":255,"list":[1,null,3],"#
        + #""nested":{"a":[true,false],"b":[]}}"#

    @Test func base64DataURLsFloatsAndNestedCollectionsDecodeAsWithJSONDecoder() throws {
        let decoded = try Self.ours(Kinds.self, Self.good)
        #expect(decoded == (try Self.foundation(Kinds.self, Self.good)))
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
        let ours = #expect(throws: DecodingError.self) { try Self.ours(Kinds.self, text) }
        #expect(ours.map(Self.shape) == expected)
        // Foundation agrees on the case; for numbers that do not fit, it does not name the member.
        let foundation = #expect(throws: DecodingError.self) { try Self.foundation(Kinds.self, text) }
        #expect(
            foundation.map(Self.shape)?.split(separator: " ").first == ours.map(Self.shape)?.split(separator: " ").first
        )
    }

    @Test func anArrayThatEndsEarlyIsValueNotFoundAtTheMissingIndex() throws {
        #expect(try Self.ours(Triple.self, "[1,2,3]") == Triple(values: [1, 2, 3]))
        let ours = #expect(throws: DecodingError.self) { try Self.ours(Triple.self, "[1,2]") }
        let foundation = #expect(throws: DecodingError.self) { try Self.foundation(Triple.self, "[1,2]") }
        #expect(ours.map(Self.shape) == "valueNotFound [2]")
        #expect(foundation.map(Self.shape) == ours.map(Self.shape))
    }
}

extension JSONValueDecoderTests.Triple {
    init(values: [Int]) { self.values = values }
}
