import AuthKit
import Foundation
import GatehouseJSON
import Store

/// The local outbox (`OutboxSender`'s table) read back for a developer: `gatehouse outbox`, and
/// start-api's console notices. Expired messages (24 h) never appear.
struct OutboxFeed {
    /// One delivered message.
    struct Message: Equatable {
        let recipient: String
        /// The item's sort key: epoch milliseconds and a random suffix.
        let createdAt: String
        let created: Date
        let channel: String
        let subject: String?
        let text: String
        let secret: String
        let app: String

        init?(_ item: Item) {
            guard let recipient = item["recipient"]?.stringValue, let createdAt = item["createdAt"]?.stringValue,
                let text = item["text"]?.stringValue, let secret = item["secret"]?.stringValue
            else { return nil }
            self.recipient = recipient
            self.createdAt = createdAt
            created = Date(timeIntervalSince1970: (item["created"]?.numberValue ?? 0) / 1000)
            channel = item["channel"]?.stringValue ?? "email"
            subject = item["subject"]?.stringValue
            self.text = text
            self.secret = secret
            app = item["app"]?.stringValue ?? ""
        }

        /// When it was sent, in ISO 8601 (UTC).
        var time: String { created.formatted(.iso8601) }

        /// The console notice: `✉ ada@example.com: http://…/auth/email-callback?token=…`; for a
        /// message that carries no link or code (a notice), its subject.
        var notice: String {
            "\(channel == "sms" ? "✆" : "✉") \(recipient): \(secret.isEmpty ? subject ?? "" : secret)"
        }

        /// The message as JSON, with its time in ISO 8601.
        var json: JSONValue {
            [
                "recipient": .string(recipient), "channel": .string(channel),
                "subject": subject.map(JSONValue.string) ?? .null, "text": .string(text), "secret": .string(secret),
                "app": .string(app), "createdAt": .string(time),
            ]
        }
    }

    let store: any KeyValueStore

    /// Every message (to `recipient` only, when given), oldest first.
    func messages(to recipient: String?) async throws -> [Message] {
        let items =
            if let recipient {
                try await store.query(
                    OutboxSender.table, partition: .string(recipient), sortKey: nil, limit: nil, ascending: true)
            } else {
                try await store.scan(OutboxSender.table, limit: nil)
            }
        return items.compactMap(Message.init).sorted { $0.createdAt < $1.createdAt }
    }

    /// Calls `deliver` with each message that arrives from now on (those already there are
    /// skipped unless `includingPresent`), looking every `interval`; runs until cancelled.
    func follow(
        to recipient: String?, every interval: Duration, includingPresent: Bool, _ deliver: (Message) -> Void
    ) async throws {
        var seen = Set<String>()
        if !includingPresent {
            for message in try await messages(to: recipient) {
                seen.insert("\(message.recipient) \(message.createdAt)")
            }
        }
        while !Task.isCancelled {
            for message in try await messages(to: recipient)
            where seen.insert("\(message.recipient) \(message.createdAt)").inserted {
                deliver(message)
            }
            try await Task.sleep(for: interval)
        }
    }
}
