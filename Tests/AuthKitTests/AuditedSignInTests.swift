import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// What the shared services record: a password account's day of sign-ins, failures, a lock and
/// a password change, read back from the user's events, and nothing secret in the table.
struct AuditedSignInTests {
    @Test func aPasswordAccountsDayIsRecordedWithoutItsSecrets() async throws {
        let fixture = try await PasswordAccountsTests.Fixture()
        var sessions = fixture.accounts.sessions
        sessions.audit = AuditLog(store: fixture.store, clock: fixture.clock)
        let accounts = PasswordAccounts(
            sessions: sessions, store: fixture.store, clock: fixture.clock, links: fixture.accounts.links,
            hasher: PasswordHasher(parameters: ScryptParameters(logN: 10, r: 8, p: 1)))
        let email = "ada@example.com"
        let password = "correct horse battery"
        _ = try await fixture.signUp(email, "first password 1")
        let token = try await fixture.lastToken(email)
        // A second between steps, so that the events' order is their time's.
        func tick() { fixture.clock.set(fixture.clock.now + 1) }
        tick()
        let verified = try await accounts.verify(token: token, kinds: [.signup])
        let user = try #require(verified.user)
        let session = try #require(verified.session)
        let bearer = try await accounts.sessions.bearer("Bearer \(session.accessToken)", app: "demo")
        tick()
        _ = try await accounts.update(
            AccountChanges(password: password), to: user, for: bearer, redirectTo: nil, sourceIP: nil)
        tick()
        _ = try await accounts.signIn(email: email, password: password, app: fixture.app, sourceIP: "192.0.2.1")
        for _ in 0..<6 {
            tick()
            await #expect(throws: AccountError.invalidCredentials) {
                try await accounts.signIn(email: email, password: "wrong \(password)", app: fixture.app, sourceIP: nil)
            }
        }
        let events = try await sessions.audit.events(AuditQuery(userID: user.id, limit: 100)).events
        let summary = events.reversed().map { "\($0.action.rawValue):\($0.outcome.reason?.rawValue ?? "ok")" }
        #expect(
            summary == [
                "sign_in:ok", "password_change:ok", "sign_in:ok", "sign_in:wrong_password", "sign_in:wrong_password",
                "sign_in:wrong_password", "sign_in:wrong_password", "sign_in:wrong_password", "lock:locked",
            ])
        #expect(events.last?.method == .otp)
        #expect(events.dropLast().last?.actor == .user(user.id))
        // A refused try is not known to be the user's own.
        #expect(events.filter { $0.outcome != .success }.allSatisfy { $0.actor == .system })
        #expect(events.first { $0.action == .signIn && $0.outcome == .success }?.method == .password)
        // No password, link token, session token or address in any item.
        let text = try await fixture.store.scan(AuditLog.table, limit: nil).map { JSONValue.object($0).serialized }
            .joined(separator: "\n")
        #expect(!text.isEmpty)
        for secret in [password, "first password 1", token, session.accessToken, session.refreshToken, email] {
            #expect(!text.contains(secret))
        }
    }
}
