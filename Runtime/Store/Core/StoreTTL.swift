import GatehouseJSON

/// The contract's TTL rule, shared by every backend: an item whose TTL attribute (epoch
/// seconds, a number) is at or before now is expired: never returned, absent in every
/// condition. A TTL more than five years in the past is ignored, as DynamoDB ignores it.
public enum StoreTTL {
    /// How far in the past a TTL may be and still count.
    public static let horizon: Double = 5 * 365 * 24 * 3600

    /// Whether `item` has expired at `now` by its `attribute`.
    public static func isExpired(_ item: [String: JSONValue], attribute: String?, now: Double) -> Bool {
        guard let attribute, case .number(let seconds) = item[attribute], seconds.isFinite else { return false }
        return seconds <= now && seconds > now - horizon
    }
}
