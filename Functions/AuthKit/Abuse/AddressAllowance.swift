import GatehouseJSON
import StoreCore

/// How many emails one address may be sent, counted so that no stranger can use up what its
/// owner needs. Every request is counted per address and source (`perAddressAndSource`, an
/// IPv6 /64 as one source), so one source's requests are bounded exactly. Only a request that
/// finds no live mail to the address (the first, or one after the last mail's link expired) is
/// also counted per address (`perAddress`), and marks the address live for the link's lifetime
/// (at least the window over the limit less one: 15 minutes for 5 an hour); a request while it
/// is live is not. The mark is a conditional write, so racing requests count once. A stranger
/// can start at most one such count per mark (4 an hour), below the address's limit, so the
/// owner's request is never refused for what others asked.
///
/// Counted the same whether or not the address has an account, so the limits tell nothing.
public struct AddressAllowance: Sendable, Equatable {
    public let perAddress: RateLimit
    public let perAddressAndSource: RateLimit

    /// `limit` mails an hour per address and source, and `limit` fresh ones per address, in
    /// counters named `{name}:email` and `{name}:email-source`.
    public init(name: String, limit: Int) {
        perAddress = RateLimit(name: "\(name):email", limit: limit, window: 3600)
        perAddressAndSource = RateLimit(name: "\(name):email-source", limit: limit, window: 3600)
    }

    /// Counts a mail to `address` asked for from `sourceIP` (nil: a server-to-server caller, one
    /// source), whose link works for `lifetime` seconds: `SignInError.rateLimited` past a limit.
    public func count(
        _ address: String, sourceIP: String?, lifetime: Double, store: any KeyValueStore, clock: any StoreClock
    ) async throws {
        let limiter = RateLimiter(store: store, clock: clock)
        if case .limited(let seconds) = try await limiter.hit(
            perAddressAndSource, subject: SourceKey.of(address, from: sourceIP))
        {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        // The request that marks the address live is the one counted per address: a
        // conditional write, so racing requests count once. The mark lasts at least the window
        // over the limit less one (15 minutes for 5 an hour), so even short-lived links let no
        // stranger start enough counts to fill the address's limit.
        let live = ItemKey(.string("\(perAddress.name):live:\(SHA256Hex.of(Array(address.utf8)))"))
        let until = clock.now + max(lifetime, perAddress.window / Double(max(1, perAddress.limit - 1)))
        do {
            try await store.put(
                RateLimiter.table,
                item: ["key": live.partition, "until": .number(until), "ttl": .number(until.rounded(.up))],
                condition: .itemNotExists)
        } catch StoreError.conditionFailed {
            return
        }
        if case .limited(let seconds) = try await limiter.hit(perAddress, subject: address) {
            // Not live after all: the next request is counted here too.
            _ = try? await store.delete(RateLimiter.table, key: live, condition: nil)
            throw SignInError.rateLimited(retryAfter: seconds)
        }
    }
}
