import AuthKit
import Testing

extension PasswordAccountsTests {
    /// A banned user's right password is refused before anything is written: the sign-in time
    /// support reads stays as it was, and no session starts.
    @Test func aBannedUsersRightPasswordChangesNothing() async throws {
        let fixture = try await Fixture()
        let (user, _) = try await fixture.confirmedAccount("ada@example.com")
        let before = try #require(try await UserDirectory(store: fixture.store, clock: fixture.clock).user(id: user.id))
        try await UserAdmin(store: fixture.store, clock: fixture.clock, actor: .terminal).ban(
            id: user.id, forSeconds: 3600)
        fixture.clock.set(fixture.clock.now + 60)
        await #expect(throws: SessionError.banned) {
            try await fixture.accounts.signIn(
                email: "ada@example.com", password: "correct horse battery", app: fixture.app, sourceIP: "192.0.2.1")
        }
        let after = try #require(try await UserDirectory(store: fixture.store, clock: fixture.clock).user(id: user.id))
        #expect(after.lastSignInAt == before.lastSignInAt)
    }
}
