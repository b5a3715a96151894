import GatehouseJSON

/// Items between `JSONValue` and DynamoDB's typed attribute values: `S`, `N` (the number's
/// JSON text, so it reads back as the same number), `BOOL`, `NULL`, `M` and `L`.
enum AttributeValue {
    static func encode(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null: ["NULL": true]
        case .bool(let flag): ["BOOL": .bool(flag)]
        case .number: ["N": .string(value.serialized)]
        case .string(let text): ["S": .string(text)]
        case .array(let list): ["L": .array(list.map { encode($0) })]
        case .object(let members): ["M": .object(members.mapValues { encode($0) })]
        }
    }

    static func encode(item: [String: JSONValue]) -> JSONValue {
        .object(item.mapValues { encode($0) })
    }

    /// The value an attribute value holds; nil for a type Gatehouse never writes (sets, binary).
    static func decode(_ attribute: JSONValue) -> JSONValue? {
        guard case .object(let typed) = attribute, typed.count == 1, let (type, value) = typed.first else { return nil }
        switch (type, value) {
        case ("NULL", _): return .null
        case ("BOOL", .bool(let flag)): return .bool(flag)
        case ("S", .string(let text)): return .string(text)
        case ("N", .string(let text)): return Double(text).map(JSONValue.number)
        case ("L", .array(let list)):
            let values = list.compactMap { decode($0) }
            return values.count == list.count ? .array(values) : nil
        case ("M", .object(let members)): return decode(item: .object(members)).map(JSONValue.object)
        default: return nil
        }
    }

    static func decode(item: JSONValue) -> [String: JSONValue]? {
        guard case .object(let members) = item else { return nil }
        var decoded: [String: JSONValue] = [:]
        for (name, attribute) in members {
            guard let value = decode(attribute) else { return nil }
            decoded[name] = value
        }
        return decoded
    }
}
