extension UserAdmin {
    /// Who the audit log says made the operations: a server key by its id, or, at a terminal,
    /// `system` (the operator's shell has no identity of its own).
    var auditActor: AuditActor {
        switch actor {
        case .serverKey(let id, _): .adminKey(id)
        case .terminal: .system
        }
    }

    /// The app of the key that made the operations, for the audit log; nil at a terminal.
    var auditApp: String? {
        switch actor {
        case .serverKey(_, let app): app
        case .terminal: nil
        }
    }

    /// Records the admin action `action` on the user `userID` (after the answer, when there is
    /// one: `AuditLog.record`).
    func recorded(_ action: AuditAction, userID: String) async {
        await audit.record(action, userID: userID, app: auditApp, actor: auditActor)
    }
}
