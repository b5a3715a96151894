/// How a phone code reaches the person: a text (`sms`, the default) or a voice call (`call`,
/// only through a provider that places calls: Twilio Verify).
public enum PhoneCodeChannel: String, Sendable, Equatable {
    case sms, call
}

extension PhoneCodeChannel {
    /// The channel a request's `channel` field names: `sms` when absent; a 400 naming the field
    /// for anything but `sms` or `call`.
    public init(field: String?) throws(SignInError) {
        guard let field else {
            self = .sms
            return
        }
        guard let channel = PhoneCodeChannel(rawValue: field) else {
            throw .invalidField("channel", "must be \"sms\" or \"call\"")
        }
        self = channel
    }
}
