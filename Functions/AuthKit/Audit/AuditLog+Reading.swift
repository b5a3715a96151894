import GatehouseJSON
import StoreCore

extension AuditLog {
    /// The events `query` asks for, newest first: a user's from their partition, everyone's
    /// from the partitions of the days in the range (newest day first), filtered by action.
    /// `AuditQueryError` names a query that cannot be read.
    public func events(_ query: AuditQuery) async throws -> AuditPage {
        guard (1...AuditQuery.maximumLimit).contains(query.limit) else { throw AuditQueryError.invalid("limit") }
        let now = clock.now
        let since = max(0, query.since ?? now - Double(retentionDays) * 86_400)
        let until = query.until ?? now
        guard since <= until else { throw AuditQueryError.invalid("since") }
        var upper = "\(Self.millisecondsText(until))#~"
        if let cursor = query.cursor {
            guard Self.isCursor(cursor) else { throw AuditQueryError.invalid("cursor") }
            upper = min(upper, cursor)
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
        return AuditPage(events: page, next: page.last.map(Self.sortKey(of:)))
    }

    /// The partitions to read, newest first: the user's, or each day's from `upper`'s to `since`'s.
    private func partitions(of query: AuditQuery, since: Double, upper: String) throws -> [String] {
        if let userID = query.userID {
            guard let id = AuditEvent.userID(userID) else { throw AuditQueryError.invalid("user") }
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

    /// Whether `text` is a page's `next`: 13 digits, `#`, an event id.
    static func isCursor(_ text: String) -> Bool {
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].count == 13 && parts[0].allSatisfy(\.isASCII)
            && parts[0].allSatisfy(\.isNumber) && AuditEvent.keyID(String(parts[1])) != nil
    }
}
