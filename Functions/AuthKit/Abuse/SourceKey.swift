/// What a per-source limit counts a request's source as: an IPv4 address as it is; an IPv6
/// address as its /64 (one subscriber's whole network, which hands out addresses freely), e.g.
/// `2001:db8:0:1::/64`. Every rule made with `RateLimit.perSource` counts through it, so no
/// limit can be walked around from one network's many addresses.
public enum SourceKey {
    /// The source `address` is counted as. A key is its own key.
    public static func of(_ address: String) -> String {
        guard address.contains(":") else { return address }
        let halves = address.lowercased().split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
        let head = halves[0].split(separator: ":").map(String.init)
        let tail = halves.count > 1 ? halves[1].split(separator: ":").map(String.init) : []
        let missing = 8 - head.count - tail.count
        guard halves.count > 1 ? missing >= 1 : missing == 0 else { return address }
        let groups = head + Array(repeating: "0", count: halves.count > 1 ? missing : 0) + tail
        let prefix = groups.prefix(4).map { group in
            let digits = group.drop { $0 == "0" }
            return digits.isEmpty ? "0" : String(digits)
        }
        return prefix.joined(separator: ":") + "::/64"
    }

    /// The subject of a limit per `subject` and source: `subject` as asked for from `sourceIP`
    /// (its key, so one IPv6 network is one source; nil, a caller without an address, is one
    /// source of its own), e.g. `+14155550100 2001:db8:0:1::/64`.
    public static func of(_ subject: String, from sourceIP: String?) -> String {
        "\(subject) \(sourceIP.map { of($0) } ?? "-")"
    }
}
