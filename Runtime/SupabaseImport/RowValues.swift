import GatehouseJSON

/// A row's values by column, read the same way whether the row came from JSON (typed values)
/// or CSV (text, NULL as nil): a JSON column may be an object or array, or its text.
struct RowValues {
    let row: [String: JSONValue]

    /// The column's text; nil when absent, null or empty.
    func text(_ column: String) throws(SupabaseUserRow.Problem) -> String? {
        switch row[column] {
        case nil, .null?: return nil
        case .string(let text)?: return text.isEmpty ? nil : text
        default: throw .bad("\(column) is not text")
        }
    }

    /// The column's time in milliseconds since 1970; nil when absent or null.
    func time(_ column: String) throws(SupabaseUserRow.Problem) -> Double? {
        guard let text = try text(column) else { return nil }
        guard let milliseconds = PostgresTimestamp.milliseconds(text) else { throw .bad("\(column) is not a time") }
        return milliseconds
    }

    /// The column's boolean (`true`/`false`, or PostgreSQL's `t`/`f` in text); nil when absent.
    func flag(_ column: String) throws(SupabaseUserRow.Problem) -> Bool? {
        switch row[column] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case .string(let text)?:
            switch text {
            case "t", "true": return true
            case "f", "false", "": return false
            default: throw .bad("\(column) is not a boolean")
            }
        default: throw .bad("\(column) is not a boolean")
        }
    }

    /// The column's JSON object (`{}` when absent or null), at most 16 KB of it.
    func object(_ column: String) throws(SupabaseUserRow.Problem) -> [String: JSONValue] {
        guard let value = try json(column) else { return [:] }
        guard let object = value.objectValue else { throw .bad("\(column) is not a JSON object") }
        guard value.serializedBytes.count <= SupabaseUserRow.maximumMetadataBytes else {
            throw .bad("\(column) holds more than 16 KB")
        }
        return object
    }

    /// The column's JSON array (empty when absent or null).
    func list(_ column: String) throws(SupabaseUserRow.Problem) -> [JSONValue] {
        guard let value = try json(column) else { return [] }
        guard let array = value.arrayValue else { throw .bad("\(column) is not a JSON array") }
        return array
    }

    /// The column's JSON value, parsed from its text when it came as text.
    private func json(_ column: String) throws(SupabaseUserRow.Problem) -> JSONValue? {
        switch row[column] {
        case nil, .null?: return nil
        case .string(let text)?:
            guard !text.isEmpty else { return nil }
            do {
                let value = try JSONValue(parsing: Array(text.utf8))
                return value == .null ? nil : value
            } catch {
                throw .bad("\(column) is not JSON")
            }
        case let value?: return value
        }
    }
}
