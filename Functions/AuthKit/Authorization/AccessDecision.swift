import GatehouseJSON

/// What the authorizer concluded about one request.
public enum AccessDecision: Sendable, Equatable {
    /// A valid token with every required scope: `principal` is its `sub`, `context` what the
    /// routes behind the authorizer see (string values only, as API Gateway requires).
    case allow(principal: String, context: [String: JSONValue], kid: String?)
    /// A valid token that lacks a required scope (`reason` `missing_scope`) or the required
    /// assurance level (`aal2_required`): REST answers 403.
    case deny(principal: String, kid: String?, reason: String = "missing_scope")
    /// No token, or a token that does not verify (REST answers 401). `reason` is a stable code.
    case unauthorized(reason: String, kid: String?)

    /// The code a log line carries: `ok`, the denial's or the refusal's reason.
    public var reason: String {
        switch self {
        case .allow: "ok"
        case .deny(_, _, let reason), .unauthorized(let reason, _): reason
        }
    }

    /// The `kid` of the token's header, when it had one.
    public var kid: String? {
        switch self {
        case .allow(_, _, let kid), .deny(_, let kid, _), .unauthorized(_, let kid): kid
        }
    }
}
