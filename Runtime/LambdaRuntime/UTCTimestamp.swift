#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Times as Lambda's JSON log lines write them, and Supabase's API too: RFC 3339 in UTC with
/// milliseconds, `2026-11-21T16:10:00.123Z`.
public enum UTCTimestamp {
    /// `milliseconds` since 1970 (before it too), with `gmtime_r`'s calendar.
    public static func string(milliseconds: Double) -> String {
        let total = Int64(milliseconds.rounded(.down))
        let millis = ((total % 1000) + 1000) % 1000
        var seconds = time_t((total - millis) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return
            "\(pad(Int64(parts.tm_year) + 1900, 4))-\(pad(Int64(parts.tm_mon) + 1, 2))-\(pad(Int64(parts.tm_mday), 2))T"
            + "\(pad(Int64(parts.tm_hour), 2)):\(pad(Int64(parts.tm_min), 2)):\(pad(Int64(parts.tm_sec), 2)).\(pad(millis, 3))Z"
    }

    /// The wall clock's time now.
    public static func now() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return string(milliseconds: Double(now.tv_sec) * 1000 + Double(now.tv_nsec / 1_000_000))
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
