import StoreCore

/// How messages go out: `EMAIL_DELIVERY` (`outbox`, the default, or `ses`) and `SMS_DELIVERY`
/// (`outbox` or `sns`). The outbox is the local Outbox table; SES and SNS are called by senders
/// the function passes in (`RemoteSenders`), since AuthKit makes no call itself.
public struct DeliverySettings: Sendable, Equatable {
    public enum Method: String, Sendable {
        case outbox, ses, sns
    }

    public var email: Method
    public var sms: Method

    public init(email: Method = .outbox, sms: Method = .outbox) {
        self.email = email
        self.sms = sms
    }

    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        self.init(
            email: try Self.method(reader, "EMAIL_DELIVERY", allowed: [.outbox, .ses]),
            sms: try Self.method(reader, "SMS_DELIVERY", allowed: [.outbox, .sns]))
    }

    /// The sender for `channel`'s method: the outbox, or the one `remote` makes (an error when
    /// the function passed none, so a message is never dropped).
    public func sender(
        _ channel: OutgoingMessage.Channel, store: any KeyValueStore, clock: any StoreClock,
        remote: (any RemoteSenders)? = nil
    ) throws -> any MessageSender {
        let method = channel == .email ? email : sms
        if method == .outbox { return OutboxSender(store: store, clock: clock) }
        guard let remote else {
            throw SettingsError.invalid(
                channel == .email ? "EMAIL_DELIVERY" : "SMS_DELIVERY",
                "\(method.rawValue) needs a sender this function does not have")
        }
        return try remote.sender(for: method, channel: channel)
    }

    private static func method(
        _ reader: EnvironmentReader, _ name: String, allowed: [Method]
    ) throws(SettingsError) -> Method {
        let text = reader.optional(name) ?? "outbox"
        guard let method = Method(rawValue: text), allowed.contains(method) else {
            throw .invalid(name, "\"\(text)\" is not one of \(allowed.map(\.rawValue).joined(separator: ", "))")
        }
        return method
    }
}

/// The senders that call out, which a function passes to the sign-in services: SES for email,
/// SNS for SMS (see AWSDelivery).
public protocol RemoteSenders: Sendable {
    func sender(for method: DeliverySettings.Method, channel: OutgoingMessage.Channel) throws -> any MessageSender
}
