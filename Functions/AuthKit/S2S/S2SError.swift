import JOSE

/// Why a server-to-server call was refused. Every case is a 401 except `wrongApp` (403): the
/// caller is an app's backend, so the message says exactly what to fix.
public enum S2SError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `Authorization: Bearer <assertion>` header.
    case missingAssertion
    /// The assertion is not a valid one of its app: the reason, for the developer.
    case invalidAssertion(String)
    /// `iss` names no registered app.
    case unknownApp
    /// The app has no S2S public key registered.
    case noPublicKey
    /// `body_sha256` or the `x-amz-content-sha256` header does not name the body received.
    case bodyHashMismatch(String)
    /// The assertion's `jti` was already used.
    case replayed
    /// The assertion's app is not the app the request acts for.
    case wrongApp

    public var status: Int {
        switch self {
        case .wrongApp: 403
        default: 401
        }
    }

    public var code: String {
        switch self {
        case .missingAssertion: "missing_assertion"
        case .invalidAssertion: "invalid_assertion"
        case .unknownApp: "unknown_app"
        case .noPublicKey: "no_public_key"
        case .bodyHashMismatch: "body_hash_mismatch"
        case .replayed: "assertion_replayed"
        case .wrongApp: "wrong_app"
        }
    }

    public var description: String {
        switch self {
        case .missingAssertion: "The request has no Authorization: Bearer assertion."
        case .invalidAssertion(let reason): "The assertion is not valid: \(reason)."
        case .unknownApp: "The assertion's iss names no registered app."
        case .noPublicKey: "The app has no S2S public key registered; add one with gatehouse apps add --public-key."
        case .bodyHashMismatch(let reason): reason
        case .replayed: "The assertion was already used; sign a new one (with a new jti) for every request."
        case .wrongApp: "The assertion was signed by another app than the one the request names."
        }
    }
}

extension S2SError: ClientError {}
