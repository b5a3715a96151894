import GatehouseJSON

/// The rows of an export of Supabase's users, as the query in docs/supabase.md gives them:
/// JSON (an array of objects, from `json_agg`, or one object per line, from `row_to_json`) or
/// CSV with a header (from `\copy … with (format csv, header)`). Which one is told by the first
/// character that is not white space: `[` or `{` is JSON.
public struct SupabaseExport: Sendable {
    /// One row: where it is in the file (its record, counted from 1, and its line) and its values.
    public struct Row: Sendable {
        public let number: Int
        public let line: Int
        public let values: [String: JSONValue]
        /// Why the row cannot be read, when its shape is wrong (not an object, a CSV record
        /// with another number of fields than the header).
        public let problem: String?

        init(number: Int, line: Int, values: [String: JSONValue], problem: String? = nil) {
            self.number = number
            self.line = line
            self.values = values
            self.problem = problem
        }

        init(number: Int, line: Int, json value: JSONValue) {
            self.init(
                number: number, line: line, values: value.objectValue ?? [:],
                problem: value.objectValue == nil ? "not a JSON object" : nil)
        }
    }

    public let rows: [Row]

    /// Why a file cannot be read as an export at all.
    public struct Unreadable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The columns a CSV export must have.
    static let requiredColumns = ["id", "created_at"]

    /// Rows made elsewhere (`CognitoUserRow`), numbered from 1.
    public init(objects: [[String: JSONValue]]) {
        rows = objects.enumerated().map { Row(number: $0.offset + 1, line: 0, values: $0.element) }
    }

    public init(bytes: [UInt8]) throws(Unreadable) {
        let first = bytes.first {
            ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0)
        }
        switch first {
        case nil: rows = []
        case UInt8(ascii: "[")?, UInt8(ascii: "{")?: rows = try Self.json(bytes)
        default: rows = try Self.csv(bytes)
        }
    }

    /// A JSON array of objects, or JSON lines.
    static func json(_ bytes: [UInt8]) throws(Unreadable) -> [Row] {
        if let whole = try? JSONValue(parsing: bytes), case .array(let items) = whole {
            return items.enumerated().map { Row(number: $0.offset + 1, line: 0, json: $0.element) }
        }
        var rows: [Row] = []
        var line = 0
        for text in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            line += 1
            guard text.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { continue }
            guard let value = try? JSONValue(parsing: text) else {
                throw Unreadable(
                    description: "line \(line) is not JSON (the file must be a JSON array or one object a line)")
            }
            rows.append(Row(number: rows.count + 1, line: line, json: value))
        }
        return rows
    }

    static func csv(_ bytes: [UInt8]) throws(Unreadable) -> [Row] {
        let table: CSVTable
        do {
            table = try CSVTable(parsing: bytes)
        } catch {
            throw Unreadable(description: "not CSV: \(error)")
        }
        for column in requiredColumns where !table.columns.contains(column) {
            throw Unreadable(description: "the CSV header has no \(column) column (see the query in docs/supabase.md)")
        }
        return table.records.enumerated().map { number, record in
            var values: [String: JSONValue] = [:]
            for (column, field) in zip(table.columns, record.fields) {
                values[column] = field.map(JSONValue.string) ?? .null
            }
            let problem =
                record.fields.count == table.columns.count
                ? nil : "\(record.fields.count) fields where the header has \(table.columns.count)"
            return Row(number: number + 1, line: record.line, values: values, problem: problem)
        }
    }
}
