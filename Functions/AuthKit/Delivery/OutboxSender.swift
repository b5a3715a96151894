import GatehouseJSON
import StoreCore

/// The local delivery: each message becomes an item of the `Outbox` table, kept 24 hours, which
/// `gatehouse outbox` lists and `gatehouse start-api` announces on its console.
///
/// Items are keyed by recipient and `createdAt`, the creation time in epoch milliseconds
/// (13 digits, so the text sorts as the number does) and a random suffix, so two messages in
/// one millisecond never collide.
public struct OutboxSender: MessageSender {
    public static let table = "Outbox"
    /// How long a message is kept, in seconds.
    public static let lifetime: Double = 86400

    private let store: any KeyValueStore
    private let clock: any StoreClock

    public init(store: any KeyValueStore, clock: any StoreClock) {
        self.store = store
        self.clock = clock
    }

    public func send(_ message: OutgoingMessage) async throws {
        let now = clock.now
        let milliseconds = Int64((now * 1000).rounded(.down))
        var item: Item = [
            "recipient": .string(message.recipient),
            "createdAt": .string("\(Self.padded(milliseconds))-\(RandomToken.urlSafe(byteCount: 6))"),
            "channel": .string(message.channel.rawValue), "text": .string(message.text),
            "secret": .string(message.secret), "app": .string(message.app),
            "created": .number(Double(milliseconds)), "ttl": .number((now + Self.lifetime).rounded(.up)),
        ]
        if let subject = message.subject { item["subject"] = .string(subject) }
        try await store.put(Self.table, item: item, condition: .itemNotExists)
    }

    /// `value` as 13 digits, zero-padded (epoch milliseconds until the year 2286).
    static func padded(_ value: Int64) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 13 - digits.count)) + digits
    }
}
