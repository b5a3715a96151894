import StoreCore

/// The hourly budget of texts and calls: per app (`SMS_HOURLY_BUDGET_PER_APP`) and for the
/// whole deployment (`SMS_HOURLY_BUDGET`), both set by the template. Every text or call, a
/// fresh code or a resent one, spends one of each before it is sent; past either, the request
/// is refused with `SignInError.sendBudgetSpent` (429, its own error code, which the request
/// metric carries as `Reason` and the template's `SendBudgetAlarm` watches) and nothing is sent.
/// It bounds what any number of sources can make a deployment pay in an hour, whatever the
/// per-number, per-source and per-prefix limits let through.
public struct SendBudget: Sendable, Equatable {
    /// Texts and calls one app may send in an hour, unless configured.
    public static let defaultPerApp = 200
    /// Texts and calls the deployment may send in an hour, unless configured.
    public static let defaultTotal = 1_000

    public let perApp: RateLimit
    public let total: RateLimit

    public init(perApp: Int, total: Int) {
        self.perApp = RateLimit(name: "send-budget:app", limit: perApp, window: 3600)
        self.total = RateLimit(name: "send-budget:all", limit: total, window: 3600)
    }

    /// `SMS_HOURLY_BUDGET_PER_APP` and `SMS_HOURLY_BUDGET`, whole numbers of at least 1.
    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        self.init(
            perApp: try Self.count(reader, "SMS_HOURLY_BUDGET_PER_APP", default: Self.defaultPerApp),
            total: try Self.count(reader, "SMS_HOURLY_BUDGET", default: Self.defaultTotal))
    }

    private static func count(
        _ reader: EnvironmentReader, _ name: String, default value: Int
    ) throws(SettingsError)
        -> Int
    {
        guard let text = reader.optional(name) else { return value }
        guard let count = Int(text), count >= 1 else { throw .invalid(name, "\"\(text)\" is not a count of 1 or more") }
        return count
    }

    /// Spends one send of `app`'s budget and of the deployment's: `sendBudgetSpent` when either
    /// is spent. An app over its own budget is not counted at the deployment, so one app cannot
    /// use up the others' sends; a send the deployment refuses is given back to the app.
    public func spend(app: String, store: any KeyValueStore, clock: any StoreClock) async throws {
        let limiter = RateLimiter(store: store, clock: clock)
        if case .limited(let seconds) = try await limiter.hit(perApp, subject: app) {
            throw SignInError.sendBudgetSpent(retryAfter: seconds)
        }
        if case .limited(let seconds) = try await limiter.hit(total, subject: "deployment") {
            try? await limiter.undo(perApp, subject: app)
            throw SignInError.sendBudgetSpent(retryAfter: seconds)
        }
    }
}
