import AuthKit
import Store
import Testing

/// Every `UserAdmin` operation that changes a user is one audit event, its actor the server
/// key's id (never the key) with the key's app, or `system` at a terminal.
@Suite struct UserAdminAuditTests {
    @Test func eachOperationIsRecordedWithTheKeyThatMadeIt() async throws {
        let clock = TestClock(SessionFixtures.start)
        let store = try SessionFixtures.store(clock: clock)
        let audit = AuditLog(store: store, clock: clock)
        let admin = UserAdmin(store: store, clock: clock, actor: .serverKey(id: "key-1", app: "demo"), audit: audit)
        let user = try await admin.create(AdminUserFields(email: "op@example.com"), policy: PasswordPolicy())
        clock.set(clock.now + 1)
        try await admin.ban(id: user.id, forSeconds: 60)
        clock.set(clock.now + 1)
        try await admin.ban(id: user.id, forSeconds: nil)
        clock.set(clock.now + 1)
        try await UserAdmin(store: store, clock: clock, actor: .terminal, audit: audit).signOut(id: user.id)
        clock.set(clock.now + 1)
        try await admin.delete(id: user.id)

        let events = try await audit.events(AuditQuery(userID: user.id)).events
        #expect(
            events.map(\.action) == [.adminUserDeleted, .adminSignOut, .unban, .ban, .adminUserCreated])
        #expect(
            events.map(\.actor) == [
                .adminKey("key-1"), .system, .adminKey("key-1"), .adminKey("key-1"), .adminKey("key-1"),
            ])
        #expect(events.map(\.app) == ["demo", nil, "demo", "demo", "demo"])
    }
}
