/// A `timestamptz` as PostgreSQL's exports write it, in milliseconds since 1970: its text
/// (`2024-05-01 12:34:56.789012+00`, from `psql` and CSV) or JSON's (`2024-05-01T12:34:56.789012+00:00`,
/// from `row_to_json`), with `Z` or an offset of `±HH`, `±HH:MM` or `±HHMM`. Microseconds below
/// a millisecond are dropped.
enum PostgresTimestamp {
    /// Nil when `text` is not one.
    static func milliseconds(_ text: String) -> Double? {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2),
            scanner.skip("-"), let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip(" "),
            let hour = scanner.number(digits: 2), scanner.skip(":"), let minute = scanner.number(digits: 2),
            scanner.skip(":"), let second = scanner.number(digits: 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var milliseconds = 0.0
        if scanner.skip(".") {
            var scale = 100.0
            var any = false
            while let digit = scanner.number(digits: 1) {
                milliseconds += Double(digit) * scale
                scale /= 10
                any = true
            }
            guard any else { return nil }
        }
        guard let offset = scanner.offsetSeconds(), scanner.atEnd else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = Double(days * 86400 + hour * 3600 + minute * 60 + second - offset)
        return seconds * 1000 + milliseconds.rounded(.down)
    }

    /// Days from 1970-01-01 to the date (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func number(digits count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }

        /// `Z`, `±HH`, `±HH:MM` or `±HHMM`, east of UTC positive; nil when none or malformed.
        mutating func offsetSeconds() -> Int? {
            if skip("Z") { return 0 }
            let sign: Int
            if skip("+") {
                sign = 1
            } else if skip("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = number(digits: 2), hours < 24 else { return nil }
            _ = skip(":")
            let minutes = atEnd ? 0 : number(digits: 2)
            guard let minutes, minutes < 60 else { return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
