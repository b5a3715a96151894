extension AuditQuery {
    /// The query a route's query string asks for, as `GET /auth/v1/admin/audit` takes it:
    /// `user_id`, `action` (an `AuditAction`'s raw value), `since` and `until` (epoch seconds),
    /// `limit` (1 to `maximumLimit`, `defaultLimit` when absent) and `cursor` (a page's `next`).
    /// `AuditQueryError.invalid` names the first parameter that is not one of its kind.
    public init(queryParameters parameters: [String: String], defaultLimit: Int = 50) throws(AuditQueryError) {
        self.init(limit: defaultLimit, cursor: parameters["cursor"])
        if let text = parameters["user_id"] {
            guard UUIDText.canonical(text) != nil else { throw .invalid("user") }
            userID = text
        }
        if let text = parameters["action"] {
            guard let named = AuditAction(rawValue: text) else { throw .invalid("action") }
            action = named
        }
        since = try Self.seconds(parameters["since"], name: "since")
        until = try Self.seconds(parameters["until"], name: "until")
        if let text = parameters["limit"] {
            guard let value = Int(text), (1...Self.maximumLimit).contains(value) else { throw .invalid("limit") }
            limit = value
        }
    }

    /// Epoch seconds of a parameter; nil when absent.
    private static func seconds(_ text: String?, name: String) throws(AuditQueryError) -> Double? {
        guard let text else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else { throw .invalid(name) }
        return value
    }
}
