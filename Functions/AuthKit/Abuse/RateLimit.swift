/// One limit: at most `limit` events per `window` seconds for one subject (an address, a phone
/// number, a source IP), named for its counters (`send-magic-link:email`).
public struct RateLimit: Sendable, Equatable {
    public let name: String
    public let limit: Int
    /// Seconds.
    public let window: Double
    /// Whether its subjects are request sources, counted as `SourceKey` says (an IPv6 /64 is
    /// one source).
    public let countsSources: Bool

    /// A limit per subject other than a request's source (`perSource` is for those).
    public init(name: String, limit: Int, window: Double) {
        self.init(name: name, limit: limit, window: window, countsSources: false)
    }

    private init(name: String, limit: Int, window: Double, countsSources: Bool) {
        precondition(limit > 0 && window >= 1, "a rate limit allows something, over a second or more")
        self.name = name
        self.limit = limit
        self.window = window
        self.countsSources = countsSources
    }

    /// A limit per request source: whatever address is given as the subject, it is counted as
    /// its `SourceKey`, so every per-source limit sees one IPv6 network as one source.
    public static func perSource(name: String, limit: Int, window: Double) -> RateLimit {
        RateLimit(name: name, limit: limit, window: window, countsSources: true)
    }
}
