/// A duration in Go's `time.ParseDuration` text (`24h`, `1h30m`, `876000h`, `90s`), as
/// Supabase's `ban_duration` takes it: decimal numbers each followed by `ns`, `us`, `µs`, `ms`,
/// `s`, `m` or `h`.
public enum GoDuration {
    static let units: [(String, Double)] = [
        ("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("ms", 1e-3), ("s", 1), ("m", 60), ("h", 3600),
    ]

    /// Seconds; nil for text that is not a duration.
    public static func seconds(_ text: String) -> Double? {
        var rest = Substring(text)
        var sign = 1.0
        if rest.first == "-" || rest.first == "+" {
            sign = rest.first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        if rest == "0" { return 0 }
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let matching = units.filter { rest.hasPrefix($0.0) }
            guard let longest = matching.max(by: { $0.0.count < $1.0.count }) else { return nil }
            rest = rest.dropFirst(longest.0.count)
            let scale = longest.1
            total += value * scale
        }
        return sign * total
    }
}
