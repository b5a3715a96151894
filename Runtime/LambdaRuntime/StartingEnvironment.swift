/// What a function's environment still needs at its cold start, and so when its handler can be
/// built.
///
/// - Complete (nothing to fetch, the issuer given): the handler is built during initialisation,
///   before the first `/next`, and a failure is reported to `/runtime/init/error`.
/// - Otherwise the fetch starts during initialisation and runs while the runtime asks for the
///   first event; the handler is built when that event is there, from the fetched environment
///   and, when `ISSUER` is not given, the issuer the event's API makes: `https://{apiId}.{domain}`
///   (`EventAPIID`). See `FirstEventHandler` for what a failure then does.
public struct StartingEnvironment: Sendable {
    /// What the process was given.
    public var environment: [String: String]
    /// Fetches what `environment` names but does not hold (secrets); nil: nothing to fetch.
    public var fetch: (@Sendable ([String: String]) async throws -> [String: String])?
    /// The domain the issuer is built under from each event's API id (`ISSUER_API_DOMAIN`),
    /// when `ISSUER` is not given; nil: `ISSUER` is as given.
    public var issuerDomain: String?

    /// An environment with `fetch` to run and, when `ISSUER` is empty, the issuer built under
    /// `ISSUER_API_DOMAIN` when that is set.
    public init(
        _ environment: [String: String],
        fetch: (@Sendable ([String: String]) async throws -> [String: String])? = nil
    ) {
        self.environment = environment
        self.fetch = fetch
        let domain = environment[Self.issuerDomainVariable] ?? ""
        issuerDomain = (environment["ISSUER"] ?? "").isEmpty && !domain.isEmpty ? domain : nil
    }

    /// The variable naming the domain API ids are issuers under.
    public static let issuerDomainVariable = "ISSUER_API_DOMAIN"

    /// True when the handler can be built now.
    public var isComplete: Bool { fetch == nil && issuerDomain == nil }

    /// The issuer for an event of the API `apiID`.
    public func issuer(apiID: String) -> String? {
        issuerDomain.map { "https://\(apiID).\($0)" }
    }
}
