import AuthKit

extension PostgresTimestamp {
    /// `milliseconds` since 1970 as `row_to_json` writes a `timestamptz` in UTC, to the
    /// millisecond (`2024-05-01T12:34:56.789+00:00`): what `milliseconds(_:)` reads back exactly.
    static func text(milliseconds: Double) -> String {
        let total = Int64(milliseconds.rounded(.down))
        let millis = Int(((total % 1000) + 1000) % 1000)
        let seconds = (total - Int64(millis)) / 1000
        let days = Int(seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400)
        let inDay = Int(seconds - Int64(days) * 86400)
        let (year, month, day) = civil(daysSince1970: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(inDay / 3600, 2)):\(pad(inDay / 60 % 60, 2)):"
            + "\(pad(inDay % 60, 2)).\(pad(millis, 3))+00:00"
    }

    /// The date `days` after 1970-01-01 (`CivilDate`).
    static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let (year, month, day) = CivilDate.of(daysSince1970: Int64(days))
        return (Int(year), Int(month), Int(day))
    }
}
