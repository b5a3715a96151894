import StoreCore

/// How messages go out: `EMAIL_DELIVERY` (`outbox`, the default, `ses` or `resend`) and
/// `SMS_DELIVERY` (`outbox`, `sns` or `twilio`). The outbox is the local Outbox table; SES, SNS
/// and Resend are called by senders the function passes in (`RemoteSenders`), since AuthKit
/// makes no call itself. Twilio Verify sends and checks the codes itself
/// (`PhoneVerificationProvider`), so with `twilio` there is no SMS sender.
public struct DeliverySettings: Sendable, Equatable {
    public enum Method: String, Sendable {
        case outbox, ses, sns, resend, twilio
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
            email: try Self.method(reader, "EMAIL_DELIVERY", allowed: [.outbox, .ses, .resend]),
            sms: try Self.method(reader, "SMS_DELIVERY", allowed: [.outbox, .sns, .twilio]))
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

    /// The provider that makes and checks phone codes, for `SMS_DELIVERY=twilio` (an error when
    /// the function passed no `remote`); nil for every other method, whose codes are Gatehouse's.
    public func phoneVerification(remote: (any RemoteSenders)?) throws -> (any PhoneVerificationProvider)? {
        guard sms == .twilio else { return nil }
        guard let remote else {
            throw SettingsError.invalid("SMS_DELIVERY", "twilio needs a provider this function does not have")
        }
        return try remote.phoneVerification()
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

/// The senders that call out, which a function passes to the sign-in services: SES or Resend for
/// email, SNS for SMS, Twilio Verify for phone codes (see AWSDelivery), and Lambda for the
/// access-token hook.
public protocol RemoteSenders: Sendable {
    func sender(for method: DeliverySettings.Method, channel: OutgoingMessage.Channel) throws -> any MessageSender

    /// The provider that makes and checks phone codes itself (`SMS_DELIVERY=twilio`).
    func phoneVerification() throws -> any PhoneVerificationProvider

    /// How the function invokes another: the access-token hook (`AccessTokenHook`).
    func functions() -> (any FunctionInvoker)?
}

extension RemoteSenders {
    /// None, by default: a function whose senders cannot reach a provider fails its cold start.
    public func phoneVerification() throws -> any PhoneVerificationProvider {
        throw SettingsError.invalid("SMS_DELIVERY", "twilio needs a provider these senders do not have")
    }

    /// How a function invokes another (the access-token hook): none, by default, so a function
    /// whose remote calls cannot invoke one fails its cold start when a hook is named.
    public func functions() -> (any FunctionInvoker)? { nil }
}
