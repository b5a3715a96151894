/// One limit: at most `limit` events per `window` seconds for one subject (an address, a phone
/// number, a source IP), named for its counters (`send-magic-link:email`).
public struct RateLimit: Sendable, Equatable {
    public let name: String
    public let limit: Int
    /// Seconds.
    public let window: Double

    public init(name: String, limit: Int, window: Double) {
        precondition(limit > 0 && window >= 1, "a rate limit allows something, over a second or more")
        self.name = name
        self.limit = limit
        self.window = window
    }
}
