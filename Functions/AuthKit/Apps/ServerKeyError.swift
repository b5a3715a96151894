/// Why a server key was refused, or a key command failed.
public enum ServerKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No key, an unknown or revoked one, or one whose app is gone.
    case invalid
    /// Sent from a browser (the request has an `Origin`): a server key never belongs in one.
    case fromBrowser
    /// The app's publishable key sent where a server key is needed.
    case publishableKey
    /// Over the key's limit (`ServerKeys.requestsPerKey`), or the source's of unknown keys.
    case rateLimited(retryAfter: Int)
    /// `gatehouse apps key revoke` of a key id the app does not have.
    case notFound(String)

    public var description: String {
        switch self {
        case .invalid: "The server key is unknown or revoked."
        case .fromBrowser: "A server key is not accepted from a browser (the request has an Origin)."
        case .publishableKey: "A publishable key is not a server key."
        case .rateLimited(let seconds): "Too many requests with this key; retry in \(seconds) s."
        case .notFound(let id): "The app has no server key \(id)."
        }
    }
}
