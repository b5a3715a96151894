/// Where a sign-in returns to: the web app's `{baseURL}/app/auth/callback`, or the mobile app's
/// `{scheme}://auth/callback`.
public enum SignInPlatform: String, Sendable, Equatable {
    case web, mobile

    /// `text` (`web` when nil); `invalidField("platform")` for anything else.
    public init(_ text: String?) throws(SignInError) {
        guard let platform = SignInPlatform(rawValue: text ?? "web") else {
            throw .invalidField("platform", "must be web or mobile")
        }
        self = platform
    }

    /// The app's callback on this platform, without a query; `platformNotConfigured` when the
    /// app has none.
    public func callback(of app: App) throws(SignInError) -> String {
        switch self {
        case .web:
            guard let base = app.baseURL else { throw .platformNotConfigured(rawValue) }
            return "\(base)/app/auth/callback"
        case .mobile:
            guard let scheme = app.mobileScheme else { throw .platformNotConfigured(rawValue) }
            return "\(scheme)://auth/callback"
        }
    }
}
