/// The app a public sign-in request signs in to when it names none: `DEFAULT_APP`, so that a
/// deployment with one app needs no `app` anywhere. It only fills in the field: the code or
/// session still belongs to that app (and to the PKCE challenge the client sent), exactly as if
/// the request had named it.
public struct DefaultApp: Sendable, Equatable {
    /// The default app's id; nil when the function has none (then `app` is required).
    public let id: String?

    public init(id: String?) {
        self.id = id.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `DEFAULT_APP` from the function's environment.
    public init(environment: [String: String]) {
        self.init(id: EnvironmentReader(environment: environment).optional("DEFAULT_APP"))
    }

    /// The app a request names, or the default; `app is required` (400) when there is neither.
    /// Whether that app exists is for the caller to check, as for a named one.
    public func resolve(_ app: String?) throws(SignInError) -> String {
        if let app, !app.isEmpty { return app }
        guard let id else { throw .invalidField("app", "is required") }
        return id
    }
}
