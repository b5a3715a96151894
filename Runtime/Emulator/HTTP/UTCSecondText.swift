import Foundation
import Synchronization

/// A time as text, to the second, in UTC: formatted once per second and kept, since every
/// request of a second gets the same text (the `Date` header, an event's `time`).
final class UTCSecondText: Sendable {
    private let cache = Mutex<(second: Int, text: String)>((Int.min, ""))
    private let format: @Sendable (tm) -> String

    /// `format` gets the broken-down UTC time of the second.
    init(format: @escaping @Sendable (tm) -> String) {
        self.format = format
    }

    /// The text for the second `seconds` falls in.
    func text(at seconds: Double) -> String {
        let second = Int(seconds.rounded(.down))
        return cache.withLock { cache in
            if cache.second != second { cache = (second, text(forSecond: second)) }
            return cache.text
        }
    }

    /// The text for `second` (since 1970), not kept.
    func text(forSecond second: Int) -> String {
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        return format(parts)
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Two digits, as dates write days, hours, minutes and seconds.
    static func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : String(value) }
}
