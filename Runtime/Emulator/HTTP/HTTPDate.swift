import Foundation
import Synchronization

/// The `Date` header's value (RFC 9110's IMF-fixdate, always GMT), formatted once a second.
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: String)>((Int.min, ""))
    private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Now, e.g. `Sun, 22 Nov 2026 08:59:38 GMT`.
    static func now() -> String {
        let second = Int(Date().timeIntervalSince1970.rounded(.down))
        return cache.withLock { cache in
            if cache.second != second { cache = (second, format(second)) }
            return cache.text
        }
    }

    /// `seconds` since 1970 as an IMF-fixdate, by the proleptic Gregorian calendar.
    static func format(_ seconds: Int) -> String {
        let (dayNumber, time) = seconds.quotientAndRemainderFlooring(dividingBy: 86_400)
        // Howard Hinnant's days-to-civil: eras of 400 years starting on 1 March.
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = days[((dayNumber % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) "
            + "\(two(time / 3_600)):\(two(time % 3_600 / 60)):\(two(time % 60)) GMT"
    }
}

extension Int {
    /// Quotient and remainder with the quotient rounded down, so the remainder is never negative.
    fileprivate func quotientAndRemainderFlooring(dividingBy divisor: Int) -> (Int, Int) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
