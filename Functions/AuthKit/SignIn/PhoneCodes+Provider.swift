import GatehouseJSON
import StoreCore

/// Phone codes made, sent and checked by a provider (Twilio Verify): nothing of the code is
/// stored here. A request's PKCE challenge, when it sends one, is kept under the number in
/// `OtpCodes` (no code hash) for the provider's 10 minutes, so that only the verifier's holder
/// can use the code. Twilio sends a pending verification's same code again on a new request, so
/// a live challenge is never replaced or dropped by a later request (which would unbind a code
/// someone saw): the person who lost the verifier asks again after those 10 minutes.
extension PhoneCodes {
    /// How long a provider's code works (Twilio Verify's default), in seconds.
    static let providerLifetime: Double = 600

    func request(
        _ phone: PhoneNumber, through provider: any PhoneVerificationProvider, channel: PhoneCodeChannel,
        challenge: String?
    ) async throws {
        if let challenge {
            let expires = clock.now + Self.providerLifetime
            let item: Item = [
                "phone": .string(phone.value), "codeChallenge": .string(challenge),
                "expiresAt": .number((expires * 1000).rounded(.down)), "ttl": .number(expires.rounded(.up)),
            ]
            do {
                try await store.put(Self.table, item: item, condition: .itemNotExists)
            } catch StoreError.conditionFailed {
                // A live challenge stays: the code it binds is the one Twilio sends again.
            }
        }
        try await provider.start(phone, channel: channel)
    }

    /// Has the provider check `code`; `codeRefused` when it is not approved, or when the request
    /// sent a challenge that `codeVerifier` does not meet (the code is used up all the same).
    func use(
        _ code: String, for phone: PhoneNumber, codeVerifier: String?, through provider: any PhoneVerificationProvider
    ) async throws {
        guard try await provider.check(phone, code: code) else { throw SignInError.codeRefused }
        let key = ItemKey(.string(phone.value))
        guard let item = try await store.delete(Self.table, key: key, condition: nil),
            let challenge = item["codeChallenge"]?.stringValue,
            let expiresAt = item["expiresAt"]?.numberValue, clock.now * 1000 < expiresAt
        else { return }
        guard PKCE.verifies(codeVerifier ?? "", challenge: challenge) else { throw SignInError.codeRefused }
    }
}
