import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// Supabase's `/resend` `email_change`: a new link for each side of the change that has not
/// confirmed yet, for the same change; nothing once the change has expired, or for an address
/// with no change waiting.
struct EmailChangeResendTests {
    @Test func onlyTheSidesStillWaitingAreMailedAgainWhileTheChangeLives() async throws {
        let fixture = try await PasswordAccountsTests.Fixture()
        let (user, session) = try await fixture.confirmedAccount("ada@example.com")
        _ = try await fixture.update(
            AccountChanges(email: "ada@new.example"), for: try await fixture.bearer(session), redirectTo: nil,
            sourceIP: "192.0.2.9")
        let resend = {
            try await fixture.signUps.resendEmailChange(
                email: "ada@example.com", app: fixture.app, redirectTo: nil, sourceIP: "192.0.2.9")()
        }
        // The new address confirms; then a resend mails the current address alone, a new link
        // for the same change, which completes it.
        _ = try await fixture.accounts.verify(
            token: try await fixture.lastToken("ada@new.example", type: "email_change"), kinds: [.emailChange])
        let before = try await fixture.tokens("ada@example.com", type: "email_change")
        let newBefore = try await fixture.tokens("ada@new.example", type: "email_change")
        try await resend()
        let resent = try await fixture.tokens("ada@example.com", type: "email_change").subtracting(before)
        #expect(resent.count == 1)
        #expect(try await fixture.tokens("ada@new.example", type: "email_change") == newBefore)
        let done = try await fixture.accounts.verify(token: try #require(resent.first), kinds: [.emailChange])
        guard case .changed(let moved) = done.change else {
            Issue.record("not changed: \(String(describing: done.change))")
            return
        }
        #expect(moved.id == user.id && moved.email == "ada@new.example")
        // No change waiting now, and an unknown address: nothing is mailed.
        let mailed = try await fixture.store.scan(OutboxSender.table, limit: nil).count
        try await resend()
        try await fixture.signUps.resendEmailChange(
            email: "nobody@example.com", app: fixture.app, redirectTo: nil, sourceIP: "192.0.2.9")()
        #expect(try await fixture.store.scan(OutboxSender.table, limit: nil).count == mailed)
    }

    @Test func anExpiredChangeIsNotMailedAgain() async throws {
        let fixture = try await PasswordAccountsTests.Fixture()
        let (_, session) = try await fixture.confirmedAccount("ada@example.com")
        _ = try await fixture.update(
            AccountChanges(email: "ada@new.example"), for: try await fixture.bearer(session), redirectTo: nil,
            sourceIP: "192.0.2.9")
        let mailed = try await fixture.store.scan(OutboxSender.table, limit: nil).count
        fixture.clock.set(SessionFixtures.start + EmailTokens.lifetime + 1)
        try await fixture.signUps.resendEmailChange(
            email: "ada@example.com", app: fixture.app, redirectTo: nil, sourceIP: "192.0.2.9")()
        #expect(try await fixture.store.scan(OutboxSender.table, limit: nil).count == mailed)
    }
}
