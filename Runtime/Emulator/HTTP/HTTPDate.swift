import Foundation

/// The `Date` header's value (RFC 9110's IMF-fixdate, always GMT), formatted once a second.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    private static let text = UTCSecondText { parts in
        let two = UTCSecondText.twoDigits
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(UTCSecondText.months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Now, e.g. `Sun, 22 Nov 2026 08:59:38 GMT`.
    static func now() -> String {
        text.text(at: Date().timeIntervalSince1970)
    }

    /// `seconds` since 1970 as an IMF-fixdate.
    static func format(_ seconds: Int) -> String {
        text.text(forSecond: seconds)
    }
}
