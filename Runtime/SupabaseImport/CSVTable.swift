/// A CSV file as `psql`'s `\copy … with (format csv, header)` writes one (RFC 4180): the first
/// record names the columns; a field may be quoted (`"`, doubled inside), and a quoted field may
/// hold commas and line breaks. PostgreSQL writes NULL as an unquoted empty field and an empty
/// string as `""`, so the two stay apart: NULL reads as nil.
struct CSVTable {
    /// The column names of the header record.
    let columns: [String]
    /// Each record after the header, with the line it starts on (the header's is 1).
    let records: [(line: Int, fields: [String?])]

    /// Why a text is not CSV.
    enum Problem: Error, CustomStringConvertible {
        case empty
        case unterminatedQuote(line: Int)
        case strayQuote(line: Int)

        var description: String {
            switch self {
            case .empty: "the file has no header record"
            case .unterminatedQuote(let line): "a quoted field that starts on line \(line) never ends"
            case .strayQuote(let line): "a quote inside an unquoted field on line \(line)"
            }
        }
    }

    init(parsing bytes: [UInt8]) throws(Problem) {
        var reader = Reader(bytes: bytes)
        var all: [(line: Int, fields: [String?])] = []
        while let record = try reader.record() {
            all.append(record)
        }
        guard let header = all.first else { throw .empty }
        columns = header.fields.map { $0 ?? "" }
        records = Array(all.dropFirst())
    }

    /// Reads records one at a time.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var line = 1

        static let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n")
        static let carriageReturn = UInt8(ascii: "\r")

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // A UTF-8 byte order mark, as spreadsheet programs write one, is not part of the header.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        /// The next record, nil at the end; a blank line is no record.
        mutating func record() throws(Problem) -> (line: Int, fields: [String?])? {
            while position < bytes.count, bytes[position] == Self.newline || bytes[position] == Self.carriageReturn {
                if bytes[position] == Self.newline { line += 1 }
                position += 1
            }
            guard position < bytes.count else { return nil }
            let start = line
            var fields: [String?] = []
            while true {
                fields.append(try field())
                guard position < bytes.count else { break }
                position += 1
                if bytes[position - 1] == Self.newline {
                    line += 1
                    break
                }
            }
            return (start, fields)
        }

        /// One field, leaving `position` on the comma or line break after it, or at the end.
        mutating func field() throws(Problem) -> String? {
            if position < bytes.count, bytes[position] == Self.quote { return try quoted() }
            let start = position
            while position < bytes.count, bytes[position] != Self.comma, bytes[position] != Self.newline {
                guard bytes[position] != Self.quote else { throw .strayQuote(line: line) }
                position += 1
            }
            var end = position
            if end > start, bytes[end - 1] == Self.carriageReturn { end -= 1 }
            return end == start ? nil : String(decoding: bytes[start..<end], as: UTF8.self)
        }

        mutating func quoted() throws(Problem) -> String {
            let opened = line
            position += 1
            var value: [UInt8] = []
            while true {
                guard position < bytes.count else { throw .unterminatedQuote(line: opened) }
                let byte = bytes[position]
                position += 1
                if byte == Self.quote {
                    if position < bytes.count, bytes[position] == Self.quote {
                        value.append(Self.quote)
                        position += 1
                        continue
                    }
                    break
                }
                if byte == Self.newline { line += 1 }
                value.append(byte)
            }
            if position < bytes.count, bytes[position] == Self.carriageReturn { position += 1 }
            guard position >= bytes.count || bytes[position] == Self.comma || bytes[position] == Self.newline else {
                throw .strayQuote(line: line)
            }
            return String(decoding: value, as: UTF8.self)
        }
    }
}
