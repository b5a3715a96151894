import GatehouseJSON
import StoreCore

/// Every security event as items of the `AuditLog` table, kept `retentionDays` (its `ttl`),
/// written after the answer and never failing it.
///
/// Each event is two items, written in one transaction (both or neither), the same but for
/// their key: `pk` = `user#<user id>` (a user's own events; none for an event without a user)
/// and `pk` = `day#<yyyy-mm-dd>` (UTC: every event of a day, the operator's read across
/// users), each with `sk` = `<epoch milliseconds, 13 digits>#<event id>`, so a partition reads
/// newest first by a descending query and a time range is a `BETWEEN` on `sk`. The table has
/// no index: a second item costs one write unit more and needs no `Query` permission beyond
/// the table's own.
public struct AuditLog: Sendable {
    public static let table = "AuditLog"
    /// How long an event is kept by default, in days (`AUDIT_RETENTION_DAYS`).
    public static let defaultRetentionDays = 90

    let store: any KeyValueStore
    let clock: any StoreClock
    public let retentionDays: Int
    /// Whether events are written at all: off in a function the `AuditLog` table is not granted to.
    public let isEnabled: Bool

    public init(
        store: any KeyValueStore, clock: any StoreClock, retentionDays: Int = Self.defaultRetentionDays,
        isEnabled: Bool = true
    ) {
        self.store = store
        self.clock = clock
        self.retentionDays = retentionDays
        self.isEnabled = isEnabled
    }

    /// The log a function writes: `AUDIT_RETENTION_DAYS` (1 to 3650, 90 when unset); on when
    /// the function's `STORE_ACCESS` grants the table (or when it names no grants at all).
    public init(environment: [String: String], store: any KeyValueStore, clock: any StoreClock) throws(SettingsError) {
        var days = Self.defaultRetentionDays
        if let text = EnvironmentReader(environment: environment).optional("AUDIT_RETENTION_DAYS") {
            guard let value = Int(text), (1...3650).contains(value) else {
                throw .invalid("AUDIT_RETENTION_DAYS", "give a number of days from 1 to 3650")
            }
            days = value
        }
        let granted = environment["STORE_ACCESS"].map { $0.contains("\(Self.table)=") } ?? true
        self.init(store: store, clock: clock, retentionDays: days, isEnabled: granted)
    }

    /// Records `action` about `userID` (its actor the user when it succeeded, `system` when it
    /// was refused, since whoever tried is not known to be the user; unless `actor` says), with
    /// the current request's source and client family (`AuditRequest`), after the answer.
    /// Never throws and never waits for the store when there is a request: a failed write is
    /// told to the request's `writeFailed`.
    public func record(
        _ action: AuditAction, userID: String?, app: String?, outcome: AuditOutcome = .success,
        method: AuditSignInMethod? = nil, actor: AuditActor? = nil
    ) async {
        await record(action, app: app, outcome: outcome, method: method, actor: actor) { userID }
    }

    /// `record`, with the user found after the answer by `user` (a sign-in refused before its
    /// account was read: the read is not done while the caller waits).
    public func record(
        _ action: AuditAction, app: String?, outcome: AuditOutcome, method: AuditSignInMethod? = nil,
        actor: AuditActor? = nil, user: @escaping @Sendable () async throws -> String?
    ) async {
        guard isEnabled else { return }
        let request = AuditRequest.current
        let now = clock.now
        let write: @Sendable () async throws -> Void = { [self] in
            do {
                let userID = try await user()
                let event = AuditEvent(
                    time: now, actor: actor ?? (outcome == .success ? userID.map(AuditActor.user) : nil) ?? .system,
                    action: action, userID: userID,
                    app: app, sourceIP: request?.sourceIP, outcome: outcome, method: method, agent: request?.agent)
                try await store.transactWrite(
                    items(of: event).map { .put(table: Self.table, item: $0, condition: nil) })
            } catch {
                request?.writeFailed("\(type(of: error))")
            }
        }
        try? await (request?.later ?? .now)(write)
    }

    /// The event's items: its user's (when it has one) and its day's.
    func items(of event: AuditEvent) -> [Item] {
        var item = Self.attributes(of: event)
        item["sk"] = .string(Self.sortKey(of: event))
        item["ttl"] = .number((event.time + Double(retentionDays) * 86_400).rounded(.up))
        var items: [Item] = []
        if let userID = event.userID {
            item["pk"] = .string(Self.userPartition(userID))
            items.append(item)
        }
        item["pk"] = .string(Self.dayPartition(event.time))
        items.append(item)
        return items
    }

    static func attributes(of event: AuditEvent) -> Item {
        var item: Item = [
            "eventId": .string(event.id), "time": .number(event.time), "actor": .string(event.actor.text),
            "action": .string(event.action.rawValue), "outcome": .string(event.outcome.name),
        ]
        item["userId"] = event.userID.map(JSONValue.string)
        item["app"] = event.app.map(JSONValue.string)
        item["sourceIp"] = event.sourceIP.map(JSONValue.string)
        item["reason"] = event.outcome.reason.map { .string($0.rawValue) }
        item["method"] = event.method.map { .string($0.rawValue) }
        item["agent"] = event.agent.map { .string($0.rawValue) }
        return item
    }

    /// The event an item holds; nil for an item that is not one.
    static func event(from item: Item) -> AuditEvent? {
        guard case .string(let id)? = item["eventId"], case .number(let time)? = item["time"],
            let actor = item["actor"]?.stringValue.flatMap(AuditActor.init(text:)),
            let action = item["action"]?.stringValue.flatMap(AuditAction.init(rawValue:))
        else { return nil }
        let reason = item["reason"]?.stringValue.flatMap(AuditFailureReason.init(rawValue:))
        let outcome: AuditOutcome =
            item["outcome"]?.stringValue == "failure" ? .failure(reason ?? .wrongCode) : .success
        return AuditEvent(
            id: id, time: time, actor: actor, action: action, userID: item["userId"]?.stringValue,
            app: item["app"]?.stringValue, sourceIP: item["sourceIp"]?.stringValue, outcome: outcome,
            method: item["method"]?.stringValue.flatMap(AuditSignInMethod.init(rawValue:)),
            agent: item["agent"]?.stringValue.flatMap(UserAgentFamily.init(rawValue:)))
    }

    static func userPartition(_ userID: String) -> String { "user#\(userID)" }

    /// `day#yyyy-mm-dd`, the UTC day of `time`.
    static func dayPartition(_ time: Double) -> String { "day#\(day(of: time))" }

    static func sortKey(of event: AuditEvent) -> String { "\(millisecondsText(event.time))#\(event.id)" }

    /// `time` in milliseconds, zero-padded to 13 digits, so that text order is time order.
    static func millisecondsText(_ time: Double) -> String {
        let text = String(Int64(max(0, (time * 1000).rounded(.down))))
        return String(repeating: "0", count: max(0, 13 - text.count)) + text
    }

    /// The UTC date of `time`, `yyyy-mm-dd` (`CivilDate`).
    static func day(of time: Double) -> String {
        let (year, month, day) = CivilDate.of(daysSince1970: Int64((time / 86_400).rounded(.down)))
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }
}
