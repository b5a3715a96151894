import GatehouseJSON

/// The members of a JSON object, read the way synthesized `Decodable` reads them, or refused
/// with `JSONShapeMismatch`: a required member must be there and of its type; an optional one
/// (`decodeIfPresent`) may also be missing or `null`.
struct JSONObjectReader {
    let members: [String: JSONValue]

    init(_ value: JSONValue) throws(JSONShapeMismatch) {
        guard case .object(let members) = value else { throw JSONShapeMismatch() }
        self.members = members
    }

    /// A member that may be missing or `null`: nil then.
    private func present(_ name: String) -> JSONValue? {
        guard let value = members[name], value != .null else { return nil }
        return value
    }

    func string(_ name: String) throws(JSONShapeMismatch) -> String {
        guard case .string(let text) = members[name] else { throw JSONShapeMismatch() }
        return text
    }

    func optionalString(_ name: String) throws(JSONShapeMismatch) -> String? {
        guard let value = present(name) else { return nil }
        guard case .string(let text) = value else { throw JSONShapeMismatch() }
        return text
    }

    func optionalBool(_ name: String) throws(JSONShapeMismatch) -> Bool? {
        guard let value = present(name) else { return nil }
        guard case .bool(let flag) = value else { throw JSONShapeMismatch() }
        return flag
    }

    /// An integer as `JSONValueDecoder` reads one: a number that converts exactly.
    func int64(_ name: String) throws(JSONShapeMismatch) -> Int64 {
        guard case .number(let number) = members[name], let exact = Int64(exactly: number) else {
            throw JSONShapeMismatch()
        }
        return exact
    }

    func object(_ name: String) throws(JSONShapeMismatch) -> JSONObjectReader {
        guard let value = members[name] else { throw JSONShapeMismatch() }
        return try JSONObjectReader(value)
    }

    func optionalObject(_ name: String) throws(JSONShapeMismatch) -> JSONObjectReader? {
        guard let value = present(name) else { return nil }
        return try JSONObjectReader(value)
    }

    /// `decodeIfPresent(JSONValue.self)`: any value, but `null` is nil.
    func optionalValue(_ name: String) -> JSONValue? {
        present(name)
    }

    /// `decodeIfPresent([String: JSONValue].self)`.
    func optionalMembers(_ name: String) throws(JSONShapeMismatch) -> [String: JSONValue]? {
        guard let value = present(name) else { return nil }
        guard case .object(let members) = value else { throw JSONShapeMismatch() }
        return members
    }

    /// A map of strings that may be missing or `null` (`decodeMap`): empty then.
    func stringMap(_ name: String) throws(JSONShapeMismatch) -> [String: String] {
        guard let value = present(name) else { return [:] }
        guard case .object(let members) = value else { throw JSONShapeMismatch() }
        var map: [String: String] = [:]
        map.reserveCapacity(members.count)
        for (key, member) in members {
            guard case .string(let text) = member else { throw JSONShapeMismatch() }
            map[key] = text
        }
        return map
    }

    /// A list of strings that may be missing or `null` (`decodeList`): empty then.
    func stringList(_ name: String) throws(JSONShapeMismatch) -> [String] {
        guard let value = present(name) else { return [] }
        guard case .array(let elements) = value else { throw JSONShapeMismatch() }
        var list: [String] = []
        list.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let text) = element else { throw JSONShapeMismatch() }
            list.append(text)
        }
        return list
    }
}
