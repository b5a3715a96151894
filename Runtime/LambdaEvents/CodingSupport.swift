extension KeyedDecodingContainer {
    /// A map that real events send as `null` or leave out when empty decodes as `[:]`.
    func decodeMap<Value: Decodable>(_ key: Key, as _: Value.Type = Value.self) throws -> [String: Value] {
        try decodeIfPresent([String: Value].self, forKey: key) ?? [:]
    }

    /// A list that real events send as `null` or leave out when empty decodes as `[]`.
    func decodeList<Element: Decodable>(_ key: Key, as _: Element.Type = Element.self) throws -> [Element] {
        try decodeIfPresent([Element].self, forKey: key) ?? []
    }

    /// IAM policy members (`Action`, `Resource`) may be one string or a list of them.
    func decodeOneOrMany(_ key: Key) throws -> [String] {
        if let one = try? decode(String.self, forKey: key) { return [one] }
        return try decodeList(key)
    }
}
