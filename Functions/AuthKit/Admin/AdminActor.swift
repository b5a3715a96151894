/// Who made an admin action: a server key (its id and app, never its secret) or the operator
/// at a terminal (`gatehouse users …`). Every `UserAdmin` operation knows it, so the one that
/// records admin actions has it at hand.
public enum AdminActor: Sendable, Equatable, CustomStringConvertible {
    case serverKey(id: String, app: String)
    case terminal

    public var description: String {
        switch self {
        case .serverKey(let id, let app): "server key \(id) of \(app)"
        case .terminal: "terminal"
        }
    }
}
