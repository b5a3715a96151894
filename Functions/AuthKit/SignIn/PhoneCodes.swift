import Crypto
import GatehouseJSON
import JOSE
import StoreCore

/// Sign-in by phone: `request` texts a 6-digit code, `verify` checks it.
///
/// - A code is issued under a random id (`issue`) kept in `OtpCodes` under the number, with its
///   tries and its PKCE challenge, for 5 minutes; the code itself is an HMAC of the number and
///   the issue under the server secret (`OTPSecret.code(phone:issue:)`), so the store holds
///   nothing that gives it away, and the same code can be texted again.
/// - A request while the code is live (unexpired, under its tries) texts that same code again
///   and gives it 5 minutes more, never past 15 minutes after its issue; otherwise a fresh code
///   is issued. Gatehouse's own codes live under the number and the PKCE challenge they were
///   asked with, so a request with another challenge (a stranger's) gets a code of its own,
///   bound to it, and the owner's code is never replaced, killed or rebound: the owner gets and
///   uses the code that is theirs. (A provider keeps one code a number, bound to the first
///   challenge: `PhoneCodes+Provider.swift`.) A fresh code is written only where none is live
///   (a conditional write), so racing requests never replace one another's.
/// - Requests are limited per source (30 per 5 minutes, an IPv6 /64 as one) and per number and
///   source (3 an hour), never per number alone, which a stranger could use up; and per number
///   range and source (`perPrefix`: 10 an hour to the numbers that share all but the last 4
///   digits, whether or not a code is live), so no range can be walked from one source; every text or call spends the app's and the
///   deployment's hourly `SendBudget`; and only numbers `PhoneDestinations` allows are texted.
/// - Wrong tries count against the code that was issued, with the store's atomic add before the
///   code is compared: however many race, at most 5 codes are compared, and the code is dead
///   after its 5th wrong try. Nothing locks the number: the owner's next request issues a fresh
///   code that works. Guessing stays bounded per source and per app across all numbers
///   (`CodeGuesses.phoneCodes`: 30 wrong codes an hour per source, 3,000 per app), counted first.
/// - The comparison is constant-time; a right code is consumed by a conditional delete, so it
///   works once.
/// - With a `PhoneVerificationProvider` (Twilio Verify), the provider makes, sends and checks
///   the code, and nothing of it is stored here (`PhoneCodes+Provider.swift`); the issue, its
///   tries and the limits above stay in front of it, the same.
public struct PhoneCodes: Sendable {
    public static let table = "OtpCodes"
    /// How long a code works, in seconds.
    public static let lifetime: Double = 300
    /// Requests for one number from one source (an IPv6 /64): 3 an hour.
    public static let perPhone = RateLimit(name: "otp:phone-source", limit: 3, window: 3600)
    public static let perSourceIP = RateLimit.perSource(name: "otp:ip", limit: 30, window: 300)
    /// Requests for the numbers that share all but their last 4 digits, from one source (an
    /// IPv6 /64): 10 an hour. Per source, so that no stranger can use up an owner's range; many
    /// sources walking one range are bounded by the `SendBudget`.
    public static let perPrefix = RateLimit(name: "otp:prefix-source", limit: 10, window: 3600)
    /// The longest a code lives after its issue, however often it is texted again; a request
    /// after it issues a fresh one.
    public static let maximumLifetime: Double = 900
    /// Wrong tries a code takes before it is dead.
    public static let triesPerCode = 5

    let store: any KeyValueStore
    let clock: any StoreClock
    let sender: any MessageSender
    let secret: OTPSecret
    /// The provider that makes and checks codes instead of Gatehouse (Twilio Verify), if any.
    let provider: (any PhoneVerificationProvider)?
    /// Where texts and calls may go.
    let destinations: PhoneDestinations
    /// The hourly budget of texts and calls.
    let budget: SendBudget

    public init(
        store: any KeyValueStore, clock: any StoreClock, sender: any MessageSender, secret: OTPSecret,
        provider: (any PhoneVerificationProvider)? = nil,
        destinations: PhoneDestinations = PhoneDestinations(
            textCountries: PhoneDestinations.defaultTextCountries, callCountries: PhoneDestinations.defaultCallCountries
        ),
        budget: SendBudget = SendBudget(perApp: SendBudget.defaultPerApp, total: SendBudget.defaultTotal)
    ) {
        self.store = store
        self.clock = clock
        self.sender = sender
        self.secret = secret
        self.provider = provider
        self.destinations = destinations
        self.budget = budget
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

    /// Texts a code to `phone` for `app` (or calls with it: `channel` `.call`, through a
    /// provider only): the live one again, or a fresh one; `sourceIP` is the caller's address.
    /// With a `codeChallenge` (PKCE S256), only the holder of its verifier can use the code.
    public func request(
        _ phone: PhoneNumber, app: String, sourceIP: String?, codeChallenge: String? = nil,
        channel: PhoneCodeChannel = .sms
    ) async throws {
        try await prepare(phone, app: app, sourceIP: sourceIP, codeChallenge: codeChallenge, channel: channel)()
    }

    /// `request`'s checks and counts, all made now, whatever the number, and the rest (the code
    /// issued and texted) as work for after the caller's answer, which the caller runs only for
    /// a number that has a user (Supabase's `create_user: false`): neither the answer, its time
    /// nor any limit tells whether it has one.
    public func prepare(
        _ phone: PhoneNumber, app: String, sourceIP: String?, codeChallenge: String? = nil,
        channel: PhoneCodeChannel = .sms
    ) async throws -> @Sendable () async throws -> Void {
        let text = try await prepareText(
            phone, app: app, sourceIP: sourceIP, codeChallenge: codeChallenge, channel: channel)
        return { try await text(nil) }
    }

    /// `prepare` for a text whose code is for a sign-up, known only after the checks: the work
    /// takes the sign-up's user id (nil: a sign-in's code, as `prepare`'s). A right code texted
    /// only for that sign-up says so when it is checked (`verify`).
    public func prepareText(
        _ phone: PhoneNumber, app: String, sourceIP: String?, codeChallenge: String? = nil,
        channel: PhoneCodeChannel = .sms
    ) async throws -> @Sendable (_ signUp: String?) async throws -> Void {
        let challenge = try await check(phone, sourceIP: sourceIP, codeChallenge: codeChallenge, channel: channel)
        return { [self] signUp in
            let key = slot(phone, challenge: challenge)
            try await deliver(
                phone, app: app, challenge: challenge, channel: channel, at: key, found: try await state(of: key),
                forUser: signUp)
        }
    }

    /// The request's fields and the number's destination checked, and its source's, its
    /// number-and-source's and its range's limits counted: the challenge. Every request counts
    /// at its range, a live code or not: whether a number has a live code (which a
    /// `create_user: false` request leaves only for a user's) must not show in a limit.
    func check(
        _ phone: PhoneNumber, sourceIP: String?, codeChallenge: String?, channel: PhoneCodeChannel
    ) async throws -> String? {
        let challenge = try PKCE.challenge(from: codeChallenge)
        guard channel == .sms || provider != nil else {
            throw SignInError.invalidField("channel", "\"call\" needs SMS_DELIVERY=twilio")
        }
        try destinations.check(phone, channel: channel)
        let limiter = RateLimiter(store: store, clock: clock)
        if let sourceIP, case .limited(let seconds) = try await limiter.hit(Self.perSourceIP, subject: sourceIP) {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        if case .limited(let seconds) = try await limiter.hit(
            Self.perPhone, subject: SourceKey.of(phone.value, from: sourceIP))
        {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        if case .limited(let seconds) = try await limiter.hit(
            Self.perPrefix, subject: SourceKey.of(Self.prefix(phone), from: sourceIP))
        {
            throw SignInError.rateLimited(retryAfter: seconds)
        }
        return challenge
    }

    /// The code at `key` (`found` there) texted or called: the budget spent, then the live code
    /// again or a fresh one (or the provider's).
    func deliver(
        _ phone: PhoneNumber, app: String, challenge: String?, channel: PhoneCodeChannel, at key: ItemKey,
        found: SlotState, forUser: String?
    ) async throws {
        try await budget.spend(app: app, store: store, clock: clock)
        if let provider {
            return try await request(
                phone, through: provider, channel: channel, challenge: challenge, at: key, found: found,
                forUser: forUser)
        }
        let issue = try await issueToText(at: key, found: found, challenge: challenge, forUser: forUser)
        let code = secret.code(phone: phone, issue: issue)
        try await sender.send(
            OutgoingMessage(
                channel: .sms, recipient: phone.value, subject: nil, text: "Your code is \(code)", secret: code,
                app: app))
    }

    /// The code to text at `key`: the live one `found` there, given more time, or a fresh one;
    /// when a racing request changed the slot meanwhile, what it left there (`rateLimited`, a
    /// second to wait, if that is no live code either).
    private func issueToText(
        at key: ItemKey, found: SlotState, challenge: String?, forUser: String?
    ) async throws -> String {
        if let live = found.live, let resent = try await resend(live, at: key, forUser: forUser) { return resent }
        if found.live == nil,
            let fresh = try await issueFresh(
                at: key, found: found, challenge: challenge, lifetime: Self.lifetime, forUser: forUser)
        {
            return fresh
        }
        if let live = try await state(of: key).live, let resent = try await resend(live, at: key, forUser: forUser) {
            return resent
        }
        throw SignInError.rateLimited(retryAfter: 1)
    }

    /// The live code `live` at `key` marked for `forUser` (`marking`) and given more time.
    private func resend(_ live: Issued, at key: ItemKey, forUser: String?) async throws -> String? {
        try await marking(live, at: key, signUp: forUser)
        return try await resend(live, at: key)
    }

    /// The numbers `phone` shares a range with: all but its last 4 digits.
    static func prefix(_ phone: PhoneNumber) -> String {
        String(phone.value.dropLast(4))
    }

    /// Checks `code` for `phone` (and `codeVerifier`, when the request sent a challenge), sent from
    /// `sourceIP` for `app`, consuming it when right; `codeRefused` or `rateLimited` otherwise. A
    /// right code with a missing or wrong verifier is consumed and refused. The id of the sign-up
    /// the right code was texted for, when it was texted for nothing else (`prepareText`).
    @discardableResult
    public func verify(
        _ phone: PhoneNumber, code: String?, codeVerifier: String? = nil, sourceIP: String?, app: String
    ) async throws -> String? {
        // Gatehouse's own code asked for with a challenge lives under it: the verifier finds it.
        let key = slot(phone, challenge: codeVerifier.map(PKCE.challenge(for:)))
        return try await verify(phone, code: code, at: key, codeVerifier: codeVerifier, sourceIP: sourceIP, app: app)
            .forUser
    }

    /// `code` checked against the live code at `key` (`phone`'s): its format, the source's and
    /// app's wrong guesses (`CodeGuesses`), the code's tries counted before a constant-time
    /// comparison (or the provider's check), then consumed once: the code that was right.
    func verify(
        _ phone: PhoneNumber, code: String?, at key: ItemKey, codeVerifier: String?, sourceIP: String?, app: String
    ) async throws -> Issued {
        guard let code, code.utf8.count == 6, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw SignInError.invalidField("code", "must be 6 digits")
        }
        try await CodeGuesses.phoneCodes.count(sourceIP: sourceIP, app: app, store: store, clock: clock)
        let issued = try await countTry(at: key)
        if let provider {
            guard try await provider.check(phone, code: code) else { throw SignInError.codeRefused }
        } else {
            guard ConstantTime.equal(secret.code(phone: phone, issue: issued.issue), code) else {
                throw SignInError.codeRefused
            }
        }
        try await consume(issued, at: key, codeVerifier: codeVerifier)
        await CodeGuesses.phoneCodes.succeeded(sourceIP: sourceIP, app: app, store: store, clock: clock)
        return issued
    }

    /// The codes a function texts and checks when it has the OTP secret (`OTPSecret.optional`);
    /// nil without a secret (phone sign-in is off). See `init(environment:store:remote:secret:)`.
    public static func optional(
        environment: [String: String], store: any KeyValueStore, remote: (any RemoteSenders)? = nil
    ) throws -> PhoneCodes? {
        guard let secret = try OTPSecret.optional(environment: environment) else { return nil }
        return try PhoneCodes(environment: environment, store: store, remote: remote, secret: secret)
    }

    /// The codes as `SMS_DELIVERY`, `SMS_COUNTRIES`, `VOICE_COUNTRIES` and the hourly budgets
    /// (`SendBudget`) set them up, on the wall clock: Gatehouse's own, texted by
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
        self.init(
            store: store, clock: clock, sender: sender, secret: secret, provider: provider,
            destinations: try PhoneDestinations(environment: environment),
            budget: try SendBudget(environment: environment))
    }

    /// `value` (below 1,000,000) as six digits, zero-padded.
    public static func sixDigits(_ value: UInt32) -> String {
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }
}
