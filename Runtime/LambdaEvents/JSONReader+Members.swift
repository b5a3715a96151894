import GatehouseJSON
import LambdaRuntime

/// Members read the way synthesized `Decodable` and this module's `decodeMap`/`decodeList`
/// read them: an optional member (`decodeIfPresent`) may also be `null`, and so may a map or a
/// list, which is then empty.
extension JSONReader {
    /// `decodeIfPresent(String.self)`: `null` is nil.
    mutating func readOptionalString() throws -> String? {
        try readNull() ? nil : readString()
    }

    /// `decodeIfPresent(Bool.self)`: `null` is nil.
    mutating func readOptionalBool() throws -> Bool? {
        try readNull() ? nil : readBool()
    }

    /// An integer as `JSONValueDecoder` reads one: a number that converts exactly.
    mutating func readInt64() throws -> Int64 {
        guard let exact = Int64(exactly: try readNumber()) else { throw JSONShapeMismatch() }
        return exact
    }

    /// `decodeIfPresent(JSONValue.self)`: any value, but `null` is nil.
    mutating func readOptionalValue() throws -> JSONValue? {
        // A pattern, not `==`: with an optional result, `value == .null` compared the value
        // promoted to an optional with `nil`, and `null` came back as `.null`.
        if try readNull() { return nil }
        return try readValue()
    }

    /// `decodeIfPresent([String: JSONValue].self)`.
    mutating func readOptionalMembers() throws -> [String: JSONValue]? {
        if try readNull() { return nil }
        var members = [String: JSONValue](minimumCapacity: 8)
        try beginObject()
        while let name = try nextMember() { members[try name.text()] = try readValue() }
        return members
    }

    /// `decodeMap` of strings: `null` is empty; a repeated name keeps its last value.
    mutating func readStringMap() throws -> [String: String] {
        if try readNull() { return [:] }
        // Room for a request's headers from the start: growing the map rehashed it several times.
        var map = [String: String](minimumCapacity: 16)
        try beginObject()
        while let name = try nextMember() { map[try name.text()] = try readString() }
        return map
    }

    /// `decodeList` of strings: `null` is empty.
    mutating func readStringList() throws -> [String] {
        var list: [String] = []
        if try readNull() { return list }
        try beginArray()
        while try nextElement() { list.append(try readString()) }
        return list
    }
}
