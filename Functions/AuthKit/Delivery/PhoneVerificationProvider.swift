/// A service that makes, sends and checks phone codes itself (Twilio Verify, `SMS_DELIVERY=twilio`):
/// Gatehouse then keeps no code, only its own request and try counts, which stay in front of it.
/// The function passes one in through `RemoteSenders`, since AuthKit makes no call itself.
public protocol PhoneVerificationProvider: Sendable {
    /// Sends a new code to `phone` by `channel`; over the provider's own limit, `rateLimited`.
    func start(_ phone: PhoneNumber, channel: PhoneCodeChannel) async throws

    /// Whether `code` is the pending code of `phone` (a right one is used up at the provider);
    /// false for a wrong code and for no pending code (expired, used, never sent). Past the
    /// provider's own limit of checks, `locked`.
    func check(_ phone: PhoneNumber, code: String) async throws -> Bool
}
