import GatehouseJSON
import StoreCore

/// Phone codes made, sent and checked by a provider (Twilio Verify): nothing of the code is
/// stored here. The issue Gatehouse keeps under the number in `OtpCodes` for the provider's 10
/// minutes holds the code's tries and the request's PKCE challenge, if it sent one, so that the
/// provider's code dies after its 5th wrong try here too and only the verifier's holder can use
/// it. Twilio sends a pending verification's same code again on a new request, so a live issue
/// is never replaced by a later request (which would unbind a code someone saw); once it is
/// used, dead or expired, the next request issues a fresh one.
extension PhoneCodes {
    /// How long a provider's code works (Twilio Verify's default), in seconds.
    static let providerLifetime: Double = 600

    func request(
        _ phone: PhoneNumber, through provider: any PhoneVerificationProvider, channel: PhoneCodeChannel,
        challenge: String?, at key: ItemKey, found: SlotState, forUser: String?
    ) async throws {
        // A racing request that issued first leaves its issue, which stands for the same code.
        if let live = found.live {
            try await marking(live, at: key, signUp: forUser)
        } else {
            _ = try await issueFresh(
                at: key, found: found, challenge: challenge, lifetime: Self.providerLifetime, forUser: forUser)
        }
        try await provider.start(phone, channel: channel)
    }
}
