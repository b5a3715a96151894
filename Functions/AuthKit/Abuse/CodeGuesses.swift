import StoreCore

/// Guesses at six-digit codes (phone codes, email codes) counted per source IP and per app,
/// across every number or address they name, before any code is compared. A target's own lock
/// (`TryLock`) stops guessing at one number or address; these stop one client, or many
/// together, from spreading guesses over many targets, one or two tries each.
///
/// A try is counted first, with the store's atomic add, so racing tries cannot slip past, and
/// taken back when the code was right: what the limits bound is wrong codes, so that a busy
/// app's sign-ins never fill them. Past a limit the answer is `SignInError.rateLimited` (429,
/// `Retry-After`), which says nothing of any number or address.
public struct CodeGuesses: Sendable {
    /// Wrong codes one source IP may send in an hour, across all numbers or addresses: 30. A
    /// person mistyping their own code stays far below it (their target locks at its 6th wrong
    /// try anyway), and an office behind one address has room for several; a guesser from one
    /// address gets 30 chances in a million an hour.
    public static let perSourceIPLimit = 30
    /// Wrong codes one app may be sent in an hour, from all sources together: 3,000, so that
    /// guessers with any number of sources get at most 3,000 chances in a million an hour, an
    /// expected 333 hours per code guessed. The price of that bound: 100 sources (IPv6 ones
    /// counted per /64, `SourceKey`) spending their whole allowance stop the app's code sign-ins
    /// for the rest of the hour; links and passwords are not affected.
    public static let perAppLimit = 3_000
    /// The window both limits count in, in seconds.
    public static let window: Double = 3600

    /// The counters of phone codes (`PhoneCodes.verify`).
    public static let phoneCodes = CodeGuesses(name: "otp-guesses")
    /// The counters of email codes (`EmailCodes.redeem`).
    public static let emailCodes = CodeGuesses(name: "email-code-guesses")

    public let perSourceIP: RateLimit
    public let perApp: RateLimit

    /// Limits whose counters are named `{name}:ip` and `{name}:app`.
    public init(name: String) {
        perSourceIP = RateLimit.perSource(name: "\(name):ip", limit: Self.perSourceIPLimit, window: Self.window)
        perApp = RateLimit(name: "\(name):app", limit: Self.perAppLimit, window: Self.window)
    }

    /// Counts one try from `sourceIP` (nil: unknown, not counted) at `app`, before the code is
    /// compared: `SignInError.rateLimited` when the source or the app is over its limit. A source
    /// over its own limit is not counted at the app, so it cannot use up the app's allowance.
    public func count(sourceIP: String?, app: String, store: any KeyValueStore, clock: any StoreClock) async throws {
        let limiter = RateLimiter(store: store, clock: clock)
        if let sourceIP,
            case .limited(let retryAfter) = try await limiter.hit(perSourceIP, subject: sourceIP)
        {
            throw SignInError.rateLimited(retryAfter: retryAfter)
        }
        if case .limited(let retryAfter) = try await limiter.hit(perApp, subject: app) {
            throw SignInError.rateLimited(retryAfter: retryAfter)
        }
    }

    /// The code was right: its try is taken back from the source and the app. Best effort: a
    /// failure here leaves one try counted, never lets one more through.
    public func succeeded(sourceIP: String?, app: String, store: any KeyValueStore, clock: any StoreClock) async {
        let limiter = RateLimiter(store: store, clock: clock)
        if let sourceIP { try? await limiter.undo(perSourceIP, subject: sourceIP) }
        try? await limiter.undo(perApp, subject: app)
    }
}
