/// Delivers `OutgoingMessage`s: the outbox locally (`OutboxSender`); SES and SNS, deployed, plug
/// in behind the same protocol. The sign-in flows do not know which.
public protocol MessageSender: Sendable {
    func send(_ message: OutgoingMessage) async throws
}
