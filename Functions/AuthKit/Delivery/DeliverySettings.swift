import StoreCore

/// How messages go out: `EMAIL_DELIVERY` and `SMS_DELIVERY`, each `outbox` (the default, the
/// local Outbox table). SES and SNS are not built yet: naming them fails the cold start with a
/// message that says so, rather than dropping messages.
public struct DeliverySettings: Sendable, Equatable {
    public enum Method: String, Sendable {
        case outbox
    }

    public var email: Method
    public var sms: Method

    public init(email: Method = .outbox, sms: Method = .outbox) {
        self.email = email
        self.sms = sms
    }

    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        self.init(email: try Self.method(reader, "EMAIL_DELIVERY"), sms: try Self.method(reader, "SMS_DELIVERY"))
    }

    /// The sender for `channel`'s method.
    public func sender(
        _ channel: OutgoingMessage.Channel, store: any KeyValueStore, clock: any StoreClock
    )
        -> any MessageSender
    {
        switch channel == .email ? email : sms {
        case .outbox: OutboxSender(store: store, clock: clock)
        }
    }

    private static func method(_ reader: EnvironmentReader, _ name: String) throws(SettingsError) -> Method {
        let text = reader.optional(name) ?? "outbox"
        guard let method = Method(rawValue: text) else {
            throw .invalid(name, "\"\(text)\" is not a delivery method built yet (outbox; ses and sns are not built)")
        }
        return method
    }
}
