/// A message to a person: an email with a sign-in link, or an SMS with a code.
public struct OutgoingMessage: Sendable, Equatable {
    public enum Channel: String, Sendable {
        case email, sms
    }

    public let channel: Channel
    /// The normalised address or E.164 number.
    public let recipient: String
    /// The email's subject; nil for an SMS.
    public let subject: String?
    /// The whole text, link or code included.
    public let text: String
    /// The link or code the text carries, apart, for the outbox and the local console: the only
    /// places it may appear besides the message itself (never a log line).
    public let secret: String
    /// The app the person is signing in to.
    public let app: String

    public init(channel: Channel, recipient: String, subject: String?, text: String, secret: String, app: String) {
        self.channel = channel
        self.recipient = recipient
        self.subject = subject
        self.text = text
        self.secret = secret
        self.app = app
    }
}
