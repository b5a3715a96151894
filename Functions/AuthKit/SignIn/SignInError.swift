/// Why a sign-in request was refused, with its HTTP status and stable `snake_case` code.
public enum SignInError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field is missing or malformed (400), named with why.
    case invalidField(String, String)
    /// No app has that id (400).
    case unknownApp
    /// The app cannot be returned to on that platform: no base URL for web, no URL scheme for
    /// mobile (400).
    case platformNotConfigured(String)
    /// Too many requests (429): nothing was sent; again after `retryAfter` seconds.
    case rateLimited(retryAfter: Int)
    /// The hourly budget of texts and calls (the app's or the deployment's) is spent (429):
    /// nothing was sent; again after `retryAfter` seconds. Its own code, for the alarm.
    case sendBudgetSpent(retryAfter: Int)
    /// The phone code is wrong, used or expired (401).
    case codeRefused
    /// The phone is locked after too many wrong codes: the same 401 as a wrong code, plus when
    /// to try again.
    case locked(retryAfter: Int)
    /// A provider's identity token was refused (401), with the reason's code.
    case tokenRefused(String)
    /// A form post that did not come from the page it belongs to (403): another origin, or no
    /// matching anti-forgery token.
    case crossSiteRequest

    public var description: String {
        switch self {
        case .invalidField(let name, let why): "\(name): \(why)"
        case .unknownApp: "No app has that id."
        case .platformNotConfigured(let platform): "The app has no return address for \(platform) sign-in."
        case .rateLimited(let seconds): "Too many requests; try again in \(seconds) s."
        case .sendBudgetSpent(let seconds): "No more texts or calls can be sent this hour; try again in \(seconds) s."
        case .codeRefused, .locked: "The code is invalid, already used or expired."
        case .tokenRefused(let reason): "The identity token was refused (\(reason))."
        case .crossSiteRequest: "The form was not sent from this sign-in page; reload it and try again."
        }
    }
}

extension SignInError: ClientError {
    public var status: Int {
        switch self {
        case .invalidField, .unknownApp, .platformNotConfigured: 400
        case .rateLimited, .sendBudgetSpent: 429
        case .codeRefused, .locked, .tokenRefused: 401
        case .crossSiteRequest: 403
        }
    }

    public var code: String {
        switch self {
        case .invalidField, .unknownApp, .platformNotConfigured: "invalid_request"
        case .rateLimited: "rate_limited"
        case .sendBudgetSpent: "send_budget_spent"
        case .codeRefused, .locked: "invalid_code"
        case .tokenRefused: "invalid_token"
        case .crossSiteRequest: "forbidden"
        }
    }

    public var retryAfter: Int? {
        switch self {
        case .rateLimited(let seconds), .sendBudgetSpent(let seconds), .locked(let seconds): seconds
        default: nil
        }
    }
}
