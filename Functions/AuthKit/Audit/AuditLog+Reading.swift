import GatehouseJSON
import StoreCore

extension AuditLog {
    /// The events `query` asks for, newest first: a user's from their partition, everyone's
    /// from the partitions of the days in the range (newest day first), filtered by action.
    /// `AuditQueryError` names a query that cannot be read.
    public func events(_ query: AuditQuery) async throws -> AuditPage {
        guard (1...AuditQuery.maximumLimit).contains(query.limit) else { throw AuditQueryError.invalid("limit") }
        // Held to what the log keeps (its retention, up to now): each day read across users is
        // one query, so an open range must not become thousands.
        let now = clock.now
        let oldest = now - Double(retentionDays) * 86_400
        let since = max(oldest, query.since ?? oldest)
        let until = min(now, query.until ?? now)
        guard (query.since ?? since) <= (query.until ?? until) else { throw AuditQueryError.invalid("since") }
        guard since <= until else { return AuditPage(events: [], next: nil) }
        var upper = "\(Self.millisecondsText(until))#~"
        if let cursor = query.cursor {
            guard let sortKey = Self.sortKey(cursor: cursor) else { throw AuditQueryError.invalid("cursor") }
            upper = min(upper, sortKey)
        }
        let lower = "\(Self.millisecondsText(since))#"
        var found: [AuditEvent] = []
        for partition in try partitions(of: query, since: since, upper: upper) {
            try await collect(
                from: partition, between: lower, and: upper, action: query.action, upTo: query.limit + 1, into: &found)
            if found.count > query.limit { break }
        }
        guard found.count > query.limit else { return AuditPage(events: found, next: nil) }
        let page = Array(found.prefix(query.limit))
        return AuditPage(events: page, next: page.last.map(Self.cursor(after:)))
    }

    /// The partitions to read, newest first: the user's, or each day's from `upper`'s to `since`'s.
    private func partitions(of query: AuditQuery, since: Double, upper: String) throws -> [String] {
        if let userID = query.userID {
            guard let id = UUIDText.canonical(userID) else { throw AuditQueryError.invalid("user") }
            return [Self.userPartition(id)]
        }
        let newest = (Double(upper.prefix(13)) ?? 0) / 1000
        let first = Int64((since / 86_400).rounded(.down))
        let last = Int64((newest / 86_400).rounded(.down))
        guard first <= last else { return [] }
        return stride(from: last, through: first, by: -1).map { Self.dayPartition(Double($0) * 86_400) }
    }

    /// Adds the partition's events with a sort key in `lower...upper` (`upper` itself left out:
    /// it is the last page's last event), newest first, until `found` holds `count`.
    private func collect(
        from partition: String, between lower: String, and upper: String, action: AuditAction?, upTo count: Int,
        into found: inout [AuditEvent]
    ) async throws {
        let batch = 100
        var upper = upper
        while found.count < count {
            let items = try await store.query(
                Self.table, partition: .string(partition), sortKey: .between(.string(lower), .string(upper)),
                limit: batch, ascending: false)
            for item in items {
                guard let sortKey = item["sk"]?.stringValue, sortKey < upper, let event = Self.event(from: item),
                    action.map({ $0 == event.action }) ?? true
                else { continue }
                found.append(event)
                if found.count == count { return }
            }
            guard items.count == batch, let last = items.last?["sk"]?.stringValue else { return }
            upper = last
        }
    }

    /// The cursor of the page after `event`: its sort key with a `.` for the `#`, so that it
    /// goes in a query string as it is.
    static func cursor(after event: AuditEvent) -> String { "\(millisecondsText(event.time)).\(event.id)" }

    /// The sort key a page's `next` stands for (13 digits, `.`, an event id); nil for any other text.
    static func sortKey(cursor text: String) -> String? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 13,
            parts[0].utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            AuditEvent.keyID(String(parts[1])) != nil
        else { return nil }
        return "\(parts[0])#\(parts[1])"
    }
}
