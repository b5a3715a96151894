import AuthKit
import Testing

/// An operator's read across users reads each day's partition of the range, so the range is
/// held to what the log keeps: from the retention's start to now, whatever `since` and `until`
/// ask for.
struct AuditLogReadingBoundsTests {
    @Test func aReadAcrossUsersQueriesNoMoreDaysThanTheLogKeeps() async throws {
        let clock = TestClock(SessionFixtures.start)
        let store = RecordingStore(try SessionFixtures.store(clock: clock))
        let log = AuditLog(store: store, clock: clock, retentionDays: 7)
        await log.record(.signIn, userID: "0f8fad5b-d9cb-469f-a165-70867728950e", app: "demo")
        for query in [
            AuditQuery(since: 0), AuditQuery(until: 99_999_999_999), AuditQuery(since: 0, until: 99_999_999_999),
        ] {
            store.reset()
            let page = try await log.events(query)
            #expect(page.events.count == 1)
            let queries = store.calls.filter { $0.hasPrefix("query") }.count
            #expect(queries <= 7 + 2, "\(queries) queries for \(query)")
        }
    }
}
