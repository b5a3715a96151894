import Foundation
import GatehouseJSON

@testable import LambdaEvents
@testable import LambdaRuntime

/// The two decoders the runtime's tests compare: the runtime's own and Foundation's.
enum DecoderComparison {
    /// `text` decoded as the runtime decodes a typed handler's event.
    static func ours<T: Decodable>(_ type: T.Type, _ text: some Sequence<UInt8>) throws -> T {
        try Array(text).withUnsafeBufferPointer { try EventDecoding.decode(type, from: $0) }
    }

    /// `text` decoded by `JSONValueDecoder` alone.
    static func decodable<T: Decodable>(_ type: T.Type, _ text: some Sequence<UInt8>) throws -> T {
        try Array(text).withUnsafeBufferPointer { try JSONValueDecoder().decode(type, from: $0) }
    }

    /// `text` decoded by Foundation's `JSONDecoder`.
    static func foundation<T: Decodable>(_ type: T.Type, _ text: some Sequence<UInt8>) throws -> T {
        try JSONDecoder().decode(type, from: Data(text))
    }

    /// A decoding error's case and path, e.g. `typeMismatch headers.a` or `valueNotFound list.[1]`.
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
}
