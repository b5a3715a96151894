/// Times as Supabase writes them: RFC 3339 in UTC with milliseconds, `2025-09-15T10:30:00.000Z`.
public enum ISOTime {
    /// `milliseconds` since 1970 as RFC 3339 text (proleptic Gregorian calendar, UTC).
    public static func string(milliseconds: Double) -> String {
        let total = Int64(milliseconds.rounded(.down))
        let millis = Int(((total % 1000) + 1000) % 1000)
        let seconds = (total - Int64(millis)) / 1000
        var days = seconds / 86400
        var rest = seconds - days * 86400
        if rest < 0 {
            rest += 86400
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(Int(rest / 3600), 2)):"
            + "\(pad(Int(rest % 3600 / 60), 2)):\(pad(Int(rest % 60), 2)).\(pad(millis, 3))Z"
    }

    /// Year, month and day of the day `days` after 1970-01-01 (H. Hinnant's days-to-civil).
    static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
