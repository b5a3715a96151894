import Crypto
import GatehouseJSON
import JOSE
import StoreCore

/// Sign-in by phone: `request` texts a 6-digit code, `verify` checks it.
///
/// - The code is drawn uniformly from the CSPRNG (no modulo bias), stored only as an HMAC of
///   the number and the code under the server secret (`OTPSecret`), in `OtpCodes` keyed by the
///   number, for 5 minutes; a new request replaces the previous code.
/// - Requests: 3 per hour per number, 30 per 5 minutes per source IP, exact (`RateLimiter`).
/// - Verification counts every try before it looks at the code, with the store's atomic add,
///   so that however many race, no more than 5 codes are compared in an hour: after 5 failed
///   tries in an hour the next locks the number for an hour, and after 10 failed tries in a day
///   for 24 hours. A right code takes its own try back from both counts (`TryLock.forgive`):
///   only failures count, and they keep counting. The lock is checked first, and
///   a locked number gets the same 401 as a wrong code, with `Retry-After`. The comparison is
///   constant-time; a right code is consumed by a conditional delete, so it works once.
/// - Before the number's tries, each try is counted per source IP and per app across all numbers
///   (`CodeGuesses.phoneCodes`: 30 wrong codes an hour per source, 3,000 per app), so a client
///   cannot spread its guesses over many numbers.
/// - With a `PhoneVerificationProvider` (Twilio Verify), the provider makes, sends and checks
///   the code, and nothing of it is stored here (`PhoneCodes+Provider.swift`); the limits and
///   locks above stay in front of it, the same.
public struct PhoneCodes: Sendable {
    public static let table = "OtpCodes"
    /// How long a code works, in seconds.
    public static let lifetime: Double = 300
    public static let perPhone = RateLimit(name: "otp:phone", limit: 3, window: 3600)
    public static let perSourceIP = RateLimit.perSource(name: "otp:ip", limit: 30, window: 300)
    static let hourlyTries = RateLimit(name: "otp-tries:1h", limit: 5, window: 3600)
    static let dailyTries = RateLimit(name: "otp-tries:24h", limit: 10, window: 86400)
    /// After 5 failed tries in an hour the number is locked for an hour; after 10 in a day, for
    /// a day. Right codes are taken back (`TryLock.forgive`).
    static let tries = TryLock(
        name: "otp-lock",
        rules: [.init(limit: hourlyTries, lockSeconds: 3600), .init(limit: dailyTries, lockSeconds: 86400)])

    let store: any KeyValueStore
    let clock: any StoreClock
    private let sender: any MessageSender
    private let secret: OTPSecret
    /// The provider that makes and checks codes instead of Gatehouse (Twilio Verify), if any.
    let provider: (any PhoneVerificationProvider)?

    public init(
        store: any KeyValueStore, clock: any StoreClock, sender: any MessageSender, secret: OTPSecret,
        provider: (any PhoneVerificationProvider)? = nil
    ) {
        self.store = store
        self.clock = clock
        self.sender = sender
        self.secret = secret
        self.provider = provider
    }

    /// The number in `phoneNumber` (international, or national for `countryCode`), or a 400
    /// naming the field.
    public static func number(_ phoneNumber: String?, countryCode: String?) throws(SignInError) -> PhoneNumber {
        guard let phoneNumber else { throw .invalidField("phoneNumber", "is required") }
        guard let number = PhoneNumber(phoneNumber, country: countryCode) else {
            throw .invalidField("phoneNumber", "is not a phone number (give +country code, or countryCode)")
        }
        return number
    }

    /// Texts a fresh code to `phone` for `app` (or calls with it: `channel` `.call`, through a
    /// provider only); `sourceIP` is the caller's address. With a `codeChallenge` (PKCE S256),
    /// only the holder of its verifier can use the code.
    public func request(
        _ phone: PhoneNumber, app: String, sourceIP: String?, codeChallenge: String? = nil,
        channel: PhoneCodeChannel = .sms
    ) async throws {
        let challenge = try PKCE.challenge(from: codeChallenge)
        guard channel == .sms || provider != nil else {
            throw SignInError.invalidField("channel", "\"call\" needs SMS_DELIVERY=twilio")
        }
        let limiter = RateLimiter(store: store, clock: clock)
        if let sourceIP, case .limited(let seconds) = try await limiter.hit(Self.perSourceIP, subject: sourceIP) {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        if case .limited(let seconds) = try await limiter.hit(Self.perPhone, subject: phone.value) {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        if let provider {
            return try await request(phone, through: provider, channel: channel, challenge: challenge)
        }
        var generator = SystemRandomNumberGenerator()
        let code = Self.sixDigits(UInt32.random(in: 0..<1_000_000, using: &generator))
        let expires = clock.now + Self.lifetime
        var item: Item = [
            "phone": .string(phone.value),
            "codeHash": .string(Base64URL.encode(secret.digest(phone: phone, code: code))),
            "expiresAt": .number((expires * 1000).rounded(.down)), "ttl": .number(expires.rounded(.up)),
        ]
        if let challenge { item["codeChallenge"] = .string(challenge) }
        try await store.put(Self.table, item: item, condition: nil)
        try await sender.send(
            OutgoingMessage(
                channel: .sms, recipient: phone.value, subject: nil, text: "Your code is \(code)", secret: code,
                app: app))
    }

    /// Checks `code` for `phone` (and `codeVerifier`, when the request sent a challenge), sent from
    /// `sourceIP` for `app`, consuming it when right; `codeRefused`, `locked` or `rateLimited`
    /// otherwise. A right code with a missing or wrong verifier is consumed and refused.
    public func verify(
        _ phone: PhoneNumber, code: String?, codeVerifier: String? = nil, sourceIP: String?, app: String
    ) async throws {
        guard let code, code.utf8.count == 6, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw SignInError.invalidField("code", "must be 6 digits")
        }
        try await CodeGuesses.phoneCodes.count(sourceIP: sourceIP, app: app, store: store, clock: clock)
        try await Self.tries.countTry(phone.value, store: store, clock: clock)
        if let provider {
            try await use(code, for: phone, codeVerifier: codeVerifier, through: provider)
        } else {
            try await useStoredCode(code, for: phone, codeVerifier: codeVerifier)
        }
        // Only failed tries count toward the locks: a right code takes its own try back.
        try await Self.tries.forgive(phone.value, store: store, clock: clock)
        await CodeGuesses.phoneCodes.succeeded(sourceIP: sourceIP, app: app, store: store, clock: clock)
    }

    /// Consumes the stored code of `phone` when `code` is it (and `codeVerifier` matches the
    /// request's challenge, if it sent one); `codeRefused` otherwise.
    private func useStoredCode(_ code: String, for phone: PhoneNumber, codeVerifier: String?) async throws {
        let key = ItemKey(.string(phone.value))
        guard let item = try await store.get(Self.table, key: key), let stored = item["codeHash"]?.stringValue,
            let storedMAC = Base64URL.decode(stored), let expiresAt = item["expiresAt"]?.numberValue,
            clock.now * 1000 < expiresAt,
            HMAC<SHA256>.isValidAuthenticationCode(
                storedMAC, authenticating: Array("\(phone.value):\(code)".utf8), using: secret.key)
        else { throw SignInError.codeRefused }
        do {
            _ = try await store.delete(Self.table, key: key, condition: .attributeEquals("codeHash", .string(stored)))
        } catch StoreError.conditionFailed {
            throw SignInError.codeRefused
        }
        if let challenge = item["codeChallenge"]?.stringValue, !PKCE.verifies(codeVerifier ?? "", challenge: challenge)
        {
            throw SignInError.codeRefused
        }
    }

    /// The codes a function texts and checks when it has the OTP secret (`OTPSecret.optional`);
    /// nil without a secret (phone sign-in is off). See `init(environment:store:remote:secret:)`.
    public static func optional(
        environment: [String: String], store: any KeyValueStore, remote: (any RemoteSenders)? = nil
    ) throws -> PhoneCodes? {
        guard let secret = try OTPSecret.optional(environment: environment) else { return nil }
        return try PhoneCodes(environment: environment, store: store, remote: remote, secret: secret)
    }

    /// The codes as `SMS_DELIVERY` sets them up, on the wall clock: Gatehouse's own, texted by
    /// the sender it names (SNS through `remote`, or the outbox), or with `twilio` the provider's,
    /// which makes, sends and checks them (no text is sent by Gatehouse then).
    public init(
        environment: [String: String], store: any KeyValueStore, remote: (any RemoteSenders)?, secret: OTPSecret
    ) throws {
        let clock = SystemStoreClock()
        let delivery = try DeliverySettings(environment: environment)
        let provider = try delivery.phoneVerification(remote: remote)
        let sender =
            provider == nil
            ? try delivery.sender(.sms, store: store, clock: clock, remote: remote)
            : OutboxSender(store: store, clock: clock)
        self.init(store: store, clock: clock, sender: sender, secret: secret, provider: provider)
    }

    /// `value` (below 1,000,000) as six digits, zero-padded.
    public static func sixDigits(_ value: UInt32) -> String {
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
