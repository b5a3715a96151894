#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes `Decodable` types from JSON with this module's parser, instead of Foundation's
/// `JSONDecoder`, for the events a function decodes on every invocation.
///
/// It gives what `JSONDecoder` with its default strategies gives for the same text: the same
/// values, and the same `DecodingError` cases with the same coding paths (`keyNotFound`,
/// `valueNotFound` for a null, `typeMismatch`, `dataCorrupted` for a number that does not fit
/// or text that is not JSON). `Data` is read as base64 and `URL` from a string, as there.
///
/// Three differences: a number that does not fit the integer asked for names its member (Foundation
/// says only that the data is not valid JSON); numbers are held as `Double`, so an integer beyond
/// ±2^53 is not exact (the largest in API Gateway events are millisecond times, far below); and
/// of a member named twice in one object, the last is kept, which is not the one Foundation keeps.
public struct JSONValueDecoder: Sendable {
    public init() {}

    /// Parses `bytes` as JSON and decodes a `T` from it.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>) throws -> T {
        try decode(type, from: try Self.parse(bytes))
    }

    /// Parses `bytes` as `decode(_:from:)` does: text that is not JSON is `dataCorrupted`, as
    /// with `JSONDecoder`.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> JSONValue {
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The given data was not valid JSON.", underlyingError: error))
        }
    }

    /// Decodes a `T` from an already parsed value.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value, at: []).unbox(type)
    }
}

/// A coding path entry: a member name or an array index.
private struct PathKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

/// One value and where it is: the decoder, and its single-value container.
private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, at codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    /// `T`, with shortcuts for what events hold most and the types `JSONDecoder` reads specially.
    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if type == JSONValue.self { return value as! T }
        if type == String.self { return try decode(String.self) as! T }
        if type == [String: String].self { return try stringMap() as! T }
        if type == [String: JSONValue].self {
            guard case .object(let members) = value else { throw mismatch([String: JSONValue].self) }
            return members as! T
        }
        if type == Data.self {
            guard let data = Data(base64Encoded: try decode(String.self)) else {
                throw corrupted("Encountered Data is not valid Base64.")
            }
            return data as! T
        }
        if type == URL.self {
            let text = try decode(String.self)
            guard let url = URL(string: text) else { throw corrupted("Invalid URL string.") }
            return url as! T
        }
        return try T(from: self)
    }

    /// A map of strings without a keyed container per member; a member that is not a string
    /// fails with the error the general path gives.
    private func stringMap() throws -> [String: String] {
        guard case .object(let members) = value else { throw mismatch([String: String].self) }
        var map: [String: String] = [:]
        map.reserveCapacity(members.count)
        for (name, member) in members {
            guard case .string(let text) = member else {
                throw error(for: member, expecting: String.self, at: codingPath + [PathKey(stringValue: name)])
            }
            map[name] = text
        }
        return map
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Single values

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else {
            // JSONDecoder's one exception: a null where a Bool belongs is a type mismatch (for
            // every other type it is a missing value).
            throw DecodingError.typeMismatch(
                type,
                .init(codingPath: codingPath, debugDescription: "Expected to decode Bool but found \(value.kind)."))
        }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(type) }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float {
        let number = try decode(Double.self)
        guard number.isInfinite || abs(number) <= Double(Float.greatestFiniteMagnitude) else {
            throw corrupted("Parsed JSON number <\(number)> does not fit in \(type).")
        }
        return Float(number)
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(type) }

    private func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        let number = try decode(Double.self)
        guard let exact = Integer(exactly: number) else {
            throw corrupted("Parsed JSON number <\(number)> does not fit in \(type).")
        }
        return exact
    }

    // MARK: Errors, as JSONDecoder words them

    private func mismatch(_ type: Any.Type) -> DecodingError {
        error(for: value, expecting: type, at: codingPath)
    }

    private func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: description))
    }

    /// A null where a value was expected is `valueNotFound`; anything else of the wrong kind is
    /// `typeMismatch`.
    func error(for found: JSONValue, expecting type: Any.Type, at path: [any CodingKey]) -> DecodingError {
        if found == .null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "Expected \(type) but found null."))
        }
        return .typeMismatch(
            type, .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(found.kind)."))
    }
}

/// An object's members by key.
private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return ValueDecoder(value, at: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).unbox(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(members[PathKey.superKey] ?? .null, at: codingPath + [PathKey(stringValue: PathKey.superKey)])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(members[key.stringValue] ?? .null, at: codingPath + [key])
    }
}

/// An array's elements in order.
private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> ValueDecoder {
        let path = codingPath + [PathKey(intValue: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(elements[currentIndex], at: path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { _ = try next(Any?.self); return false }
        guard elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).unbox(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

extension PathKey {
    /// The member `superDecoder()` reads, as Foundation names it.
    static let superKey = "super"
}

extension JSONValue {
    /// What kind of value this is, as `JSONDecoder`'s messages name it.
    fileprivate var kind: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}
