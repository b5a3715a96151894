import GatehouseJSON

/// Which audit events a read returns: one user's or everyone's, one action or all, in a time
/// range, a page at a time, newest first.
public struct AuditQuery: Sendable, Equatable {
    /// Only this user's events (read from the user's partition).
    public var userID: String?
    public var action: AuditAction?
    /// Seconds since 1970, both included; `since` defaults to the retention's start, `until` to now.
    public var since: Double?
    public var until: Double?
    /// 1 to `maximumLimit` events a page.
    public var limit: Int
    /// The `next` of the page before; nil for the first.
    public var cursor: String?

    public static let maximumLimit = 1000

    public init(
        userID: String? = nil, action: AuditAction? = nil, since: Double? = nil, until: Double? = nil,
        limit: Int = 50, cursor: String? = nil
    ) {
        self.userID = userID
        self.action = action
        self.since = since
        self.until = until
        self.limit = limit
        self.cursor = cursor
    }
}

/// A page of audit events, newest first, and the cursor of the next page (nil on the last).
public struct AuditPage: Sendable, Equatable {
    public let events: [AuditEvent]
    public let next: String?

    /// As an API answers it: `{"events": [...], "next": "..."}`, `next` only when there is a
    /// later page (the caller passes it back as the cursor).
    public var json: JSONValue {
        var body: [String: JSONValue] = ["events": .array(events.map(\.json))]
        body["next"] = next.map(JSONValue.string)
        return .object(body)
    }
}

/// A read's refusal, by the field that is wrong.
public enum AuditQueryError: ClientError, Equatable {
    /// `user`, `action`, `limit`, `cursor`, `since` or `until`.
    case invalid(String)

    public var status: Int { 400 }
    public var code: String { "invalid_audit_query" }

    public var description: String {
        switch self {
        case .invalid(let field): "the audit query's \(field) is not valid"
        }
    }
}
