import GatehouseJSON

/// One security event, as the `AuditLog` keeps it: when, who, what, to whom, from where, in
/// which app, and how it ended.
///
/// It cannot carry text from a request: the action, the outcome's reason, the sign-in method
/// and the client's family are fixed lists; the user's id must be a UUID, the app's id an app
/// id (`App.isValidID`), a key's id a short token and the source an IP address, or they are
/// left out. So no password, code, token, address or `User-Agent` can become part of an item.
public struct AuditEvent: Sendable, Equatable {
    /// Random, so two events of the same millisecond both stay.
    public let id: String
    /// Seconds since 1970, to the millisecond.
    public let time: Double
    public let actor: AuditActor
    public let action: AuditAction
    /// The user the event is about; nil when none is known (a sign-in of an unknown address).
    public let userID: String?
    /// The app (client id) the request came through.
    public let app: String?
    public let sourceIP: String?
    public let outcome: AuditOutcome
    /// How a session started, for `signIn` and `signUp`.
    public let method: AuditSignInMethod?
    public let agent: UserAgentFamily?

    /// An event; each identifier that is not of its kind is dropped (see the type's doc).
    public init(
        id: String = RandomToken.urlSafe(byteCount: 9), time: Double, actor: AuditActor, action: AuditAction,
        userID: String?, app: String?, sourceIP: String?, outcome: AuditOutcome,
        method: AuditSignInMethod? = nil, agent: UserAgentFamily? = nil
    ) {
        self.id = Self.keyID(id) ?? RandomToken.urlSafe(byteCount: 9)
        self.time = (time * 1000).rounded(.down) / 1000
        self.actor = Self.checked(actor)
        self.action = action
        self.userID = userID.flatMap(UUIDText.canonical)
        self.app = app.flatMap { App.isValidID($0) ? $0 : nil }
        self.sourceIP = sourceIP.flatMap(Self.sourceIP)
        self.outcome = outcome
        self.method = method
        self.agent = agent
    }

    /// `id` when it is 1 to 64 letters, digits, `-` or `_` (an event's or a server key's id).
    static func keyID(_ id: String) -> String? {
        let ok =
            !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy {
                $0.isASCIIHexDigit || $0.isASCIILetter || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
            }
        return ok ? id : nil
    }

    /// `text` when it reads as an IPv4 or IPv6 address: hex digits, dots and colons only.
    static func sourceIP(_ text: String) -> String? {
        let ok =
            (2...45).contains(text.utf8.count)
            && text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }
            && text.utf8.allSatisfy { $0.isASCIIHexDigit || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") }
        return ok ? text : nil
    }

    /// `actor`, or `system` when its id is not of its kind.
    private static func checked(_ actor: AuditActor) -> AuditActor {
        switch actor {
        case .user(let id): UUIDText.canonical(id).map(AuditActor.user) ?? .system
        case .adminKey(let id): keyID(id).map(AuditActor.adminKey) ?? .system
        case .system: .system
        }
    }

    /// As an API answers it (`GET /users/me/security-events`, the operator's read).
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "time": .number(time), "actor": .string(actor.text), "action": .string(action.rawValue),
            "outcome": .string(outcome.name),
        ]
        object["user_id"] = userID.map(JSONValue.string)
        object["app"] = app.map(JSONValue.string)
        object["source_ip"] = sourceIP.map(JSONValue.string)
        object["reason"] = outcome.reason.map { .string($0.rawValue) }
        object["method"] = method.map { .string($0.rawValue) }
        object["user_agent_family"] = agent.map { .string($0.rawValue) }
        return .object(object)
    }
}
