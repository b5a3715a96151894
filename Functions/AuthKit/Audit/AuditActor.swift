/// Who made an audited change: the user themself, an operator's server key, or Gatehouse.
public enum AuditActor: Sendable, Equatable {
    /// A user, by id (a signed-in user acting on their own account, or signing in).
    case user(String)
    /// An operator, by the id of the server key they sent (never the key).
    case adminKey(String)
    /// Gatehouse itself, or an operator's terminal (`gatehouse users …`).
    case system

    /// As stored: the user's id, `admin key <id>`, or `system`.
    public var text: String {
        switch self {
        case .user(let id): id
        case .adminKey(let id): "admin key \(id)"
        case .system: "system"
        }
    }

    /// The actor `text` names; nil for any other text.
    init?(text: String) {
        if text == "system" {
            self = .system
        } else if text.hasPrefix("admin key "), let id = AuditEvent.keyID(String(text.dropFirst(10))) {
            self = .adminKey(id)
        } else if let id = UUIDText.canonical(text) {
            self = .user(id)
        } else {
            return nil
        }
    }
}
