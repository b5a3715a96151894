import AuthKit
import Foundation
import GatehouseJSON
import Store
import Synchronization
import Testing

/// The audit log's items: their keys, their lifetime, reading them back by user and across
/// users, and what an event can and cannot hold.
struct AuditLogTests {
    static let ada = "0f8fad5b-d9cb-469f-a165-70867728950e"
    static let bob = "7c9e6679-7425-40de-944b-e07fc1f90ae7"

    let clock = TestClock(SessionFixtures.start)
    let store: SQLiteStore
    let log: AuditLog

    init() throws {
        store = try SessionFixtures.store(clock: clock)
        log = AuditLog(store: store, clock: clock)
    }

    /// The table's items, every key and value as text, for the "no secret" checks.
    func tableText() async throws -> String {
        try await store.scan(AuditLog.table, limit: nil).map { JSONValue.object($0).serialized }.joined(separator: "\n")
    }

    @Test func anEventIsTwoItemsUnderItsUserAndItsDayThatExpireAfterTheRetention() async throws {
        let short = AuditLog(store: store, clock: clock, retentionDays: 7)
        await short.record(.signIn, userID: Self.ada, app: "demo", method: .password)
        let items = try await store.scan(AuditLog.table, limit: nil)
        // 1_800_000_000 is 2027-01-15T08:00:00Z.
        #expect(Set(items.compactMap { $0["pk"]?.stringValue }) == ["user#\(Self.ada)", "day#2027-01-15"])
        for item in items {
            #expect(item["sk"]?.stringValue?.hasPrefix("1800000000000#") == true)
            #expect(item["ttl"] == .number(SessionFixtures.start + 7 * 86_400))
            #expect(item["action"] == "sign_in")
            #expect(item["method"] == "password")
            #expect(item["actor"] == .string(Self.ada))
        }
        // Past the retention, nothing is read (the store treats the ttl as DynamoDB's TTL does).
        clock.set(SessionFixtures.start + 7 * 86_400 + 1)
        #expect(try await short.events(AuditQuery(userID: Self.ada, since: 0)).events.isEmpty)
    }

    @Test func anEventWithoutAUserIsOnlyUnderItsDay() async throws {
        await log.record(.signIn, userID: nil, app: "demo", outcome: .failure(.rateLimited))
        let items = try await store.scan(AuditLog.table, limit: nil)
        #expect(items.map { $0["pk"] } == ["day#2027-01-15"])
        #expect(items.first?["actor"] == "system")
        #expect(items.first?["reason"] == "rate_limited")
    }

    @Test func aUsersEventsReadNewestFirstAPageAtATime() async throws {
        for minute in 0..<5 {
            clock.set(SessionFixtures.start + Double(minute) * 60)
            await log.record(minute == 2 ? .passwordChange : .signIn, userID: Self.ada, app: "demo")
            await log.record(.signIn, userID: Self.bob, app: "demo")
        }
        let first = try await log.events(AuditQuery(userID: Self.ada, limit: 2))
        #expect(first.events.map(\.time) == [SessionFixtures.start + 240, SessionFixtures.start + 180])
        #expect(first.events.allSatisfy { $0.userID == Self.ada })
        // A cursor goes in a query string as it is.
        #expect(first.next?.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) } == true)
        let second = try await log.events(AuditQuery(userID: Self.ada, limit: 2, cursor: first.next))
        #expect(second.events.map(\.time) == [SessionFixtures.start + 120, SessionFixtures.start + 60])
        #expect(second.events.first?.action == .passwordChange)
        let last = try await log.events(AuditQuery(userID: Self.ada, limit: 2, cursor: second.next))
        #expect(last.events.map(\.time) == [SessionFixtures.start])
        #expect(last.next == nil)
    }

    @Test func anOperatorReadsEveryUserByActionAndTimeAcrossDays() async throws {
        // Three days, two users, a lock on each of the first two days.
        for day in 0..<3 {
            clock.set(SessionFixtures.start + Double(day) * 86_400)
            await log.record(.signIn, userID: Self.ada, app: "demo", method: .otp)
            if day < 2 {
                await log.record(.lock, userID: Self.bob, app: "demo", outcome: .failure(.locked))
            }
        }
        let all = try await log.events(AuditQuery())
        #expect(all.events.count == 5)
        #expect(all.events.map(\.time) == all.events.map(\.time).sorted(by: >))
        let locks = try await log.events(AuditQuery(action: .lock))
        #expect(locks.events.map(\.time) == [SessionFixtures.start + 86_400, SessionFixtures.start])
        #expect(locks.events.allSatisfy { $0.userID == Self.bob && $0.outcome == .failure(.locked) })
        // The middle day only, a page of one at a time.
        let range = AuditQuery(since: SessionFixtures.start + 86_000, until: SessionFixtures.start + 90_000, limit: 1)
        let page = try await log.events(range)
        #expect(page.events.count == 1)
        var next = range
        next.cursor = page.next
        let rest = try await log.events(next)
        #expect(rest.events.count == 1)
        #expect(rest.next == nil)
        #expect(Set((page.events + rest.events).map(\.action)) == [.signIn, .lock])
    }

    @Test func aBadQueryIsRefusedByItsField() async throws {
        await #expect(throws: AuditQueryError.invalid("limit")) { try await log.events(AuditQuery(limit: 0)) }
        await #expect(throws: AuditQueryError.invalid("cursor")) {
            try await log.events(AuditQuery(cursor: "not a cursor"))
        }
        await #expect(throws: AuditQueryError.invalid("user")) { try await log.events(AuditQuery(userID: "ada")) }
        await #expect(throws: AuditQueryError.invalid("since")) {
            try await log.events(AuditQuery(since: 10, until: 5))
        }
    }

    @Test(
        arguments: [
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
                nil, UserAgentFamily.safari
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
                nil, .chrome
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0",
                nil, .edge
            ),
            ("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", nil, .firefox),
            ("okhttp/4.12.0", nil, .okhttp),
            ("MyApp/3 CFNetwork/1490.0.4 Darwin/23.2.0", nil, .cfNetwork),
            ("python-httpx/0.27.0", "supabase-py/2.10.0", .supabasePy),
            ("curl/8.5.0", nil, .curl),
            ("my-secret-tool/1.0 token=abc", nil, .other),
        ] as [(String, String?, UserAgentFamily)])
    func aUserAgentIsKeptAsItsFamilyOnly(userAgent: String, clientInfo: String?, family: UserAgentFamily) {
        #expect(UserAgentFamily(userAgent: userAgent, clientInfo: clientInfo) == family)
    }

    @Test func aQueryStringIsReadAsTheAdminRouteTakesIt() throws {
        let query = try AuditQuery(queryParameters: [
            "user_id": Self.ada, "action": "lock", "since": "1800000000", "until": "1800086400", "limit": "10",
            "cursor": "1800000000000.abc",
        ])
        #expect(
            query
                == AuditQuery(
                    userID: Self.ada, action: .lock, since: 1_800_000_000, until: 1_800_086_400, limit: 10,
                    cursor: "1800000000000.abc"))
        #expect(try AuditQuery(queryParameters: [:]) == AuditQuery())
        for (name, value, field) in [
            ("user_id", "ada", "user"), ("action", "drop_table", "action"), ("since", "yesterday", "since"),
            ("until", "-1", "until"), ("limit", "1001", "limit"),
        ] {
            #expect(throws: AuditQueryError.invalid(field)) { try AuditQuery(queryParameters: [name: value]) }
        }
    }

    @Test func anEventCannotCarryTextFromARequest() async throws {
        let password = "correct horse battery"
        let event = AuditEvent(
            id: "a b", time: SessionFixtures.start, actor: .adminKey("sb_secret_\(password)"), action: .signIn,
            userID: password, app: "Demo App!", sourceIP: "192.0.2.1; \(password)", outcome: .success)
        #expect(event.userID == nil)
        #expect(event.app == nil)
        #expect(event.sourceIP == nil)
        #expect(event.actor == .system)
        #expect(event.id != "a b")
        // Well-formed identifiers stay.
        let kept = AuditEvent(
            time: SessionFixtures.start, actor: .user(Self.ada.uppercased()), action: .lock, userID: Self.ada,
            app: "demo", sourceIP: "2001:db8::1", outcome: .failure(.locked))
        #expect(kept.actor == .user(Self.ada))
        #expect(kept.userID == Self.ada)
        #expect(kept.app == "demo")
        #expect(kept.sourceIP == "2001:db8::1")
    }

    @Test func theWriteRunsAfterTheAnswerAndTakesTheRequestsSourceAndFamily() async throws {
        let jobs = Mutex<[@Sendable () async throws -> Void]>([])
        let request = AuditRequest(
            sourceIP: "198.51.100.7", agent: UserAgentFamily(userAgent: "okhttp/4.12.0"),
            later: Deferred { job in jobs.withLock { $0.append(job) } }, writeFailed: { _ in })
        await AuditRequest.$current.withValue(request) {
            await log.record(.signIn, userID: Self.ada, app: "demo", method: .passkey)
        }
        #expect(try await store.scan(AuditLog.table, limit: nil).isEmpty)
        for job in jobs.withLock({ $0 }) { try await job() }
        let event = try #require(try await log.events(AuditQuery(userID: Self.ada)).events.first)
        #expect(event.sourceIP == "198.51.100.7")
        #expect(event.agent == .okhttp)
        #expect(event.method == .passkey)
    }

    @Test func aFailedWriteIsReportedByTypeAndNeverThrown() async throws {
        // A store without the table: every write fails.
        let bare = try SQLiteStore(
            path: FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).sqlite")
                .path,
            tables: [], clock: clock)
        let failures = Mutex<[String]>([])
        let request = AuditRequest(
            sourceIP: nil, agent: nil, later: .now, writeFailed: { type in failures.withLock { $0.append(type) } })
        await AuditRequest.$current.withValue(request) {
            await AuditLog(store: bare, clock: clock).record(.signIn, userID: Self.ada, app: "demo")
        }
        #expect(failures.withLock { $0 }.count == 1)
        #expect(failures.withLock { $0 }.allSatisfy { !$0.contains(Self.ada) })
    }

    @Test func theEnvironmentSetsTheRetentionAndWhetherTheFunctionWrites() throws {
        let granted = try AuditLog(
            environment: ["STORE_ACCESS": "AuditLog=put Users=read", "AUDIT_RETENTION_DAYS": "30"], store: store,
            clock: clock)
        #expect(granted.isEnabled)
        #expect(granted.retentionDays == 30)
        let other = try AuditLog(environment: ["STORE_ACCESS": "Users=read"], store: store, clock: clock)
        #expect(!other.isEnabled)
        #expect(other.retentionDays == AuditLog.defaultRetentionDays)
        #expect(throws: SettingsError.self) {
            try AuditLog(environment: ["AUDIT_RETENTION_DAYS": "0"], store: store, clock: clock)
        }
    }

    @Test func aDisabledLogWritesNothing() async throws {
        await AuditLog(store: store, clock: clock, isEnabled: false).record(.signIn, userID: Self.ada, app: "demo")
        #expect(try await store.scan(AuditLog.table, limit: nil).isEmpty)
        #expect(try await tableText().isEmpty)
    }
}
