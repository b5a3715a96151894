import AuthKit
import Foundation
import Store
import Testing

/// The password sign-in guard on a real store file with a clock the tests set: the account lock
/// at exactly 5 tries (racing ones too), its end, and the per-IP limit on failures.
struct PasswordAttemptsTests {
    static let email = EmailAddress("ada@example.com")!

    struct Fixture {
        let clock = TestClock(SessionFixtures.start)
        let store: SQLiteStore
        let attempts: PasswordAttempts

        init() throws {
            store = try SessionFixtures.store(clock: clock)
            attempts = PasswordAttempts(store: store, clock: clock)
        }
    }

    @Test func theSixthTryIn15MinutesLocksTheAccountFor15Minutes() async throws {
        let fixture = try Fixture()
        for _ in 0..<5 { try await fixture.attempts.begin(account: Self.email.value, sourceIP: nil) }
        await #expect(throws: SignInError.locked(retryAfter: 900)) {
            try await fixture.attempts.begin(account: Self.email.value, sourceIP: nil)
        }
        // Locked: refused before anything is compared, whatever the password would have been.
        fixture.clock.set(fixture.clock.now + 899)
        await #expect(throws: SignInError.locked(retryAfter: 1)) {
            try await fixture.attempts.begin(account: Self.email.value, sourceIP: nil)
        }
        fixture.clock.set(fixture.clock.now + 1)
        try await fixture.attempts.begin(account: Self.email.value, sourceIP: nil)
        // Another address is not locked by this one's tries.
        try await fixture.attempts.begin(account: "grace@example.com", sourceIP: nil)
    }

    @Test func aRightPasswordForgetsTheTries() async throws {
        let fixture = try Fixture()
        for _ in 0..<4 { try await fixture.attempts.begin(account: Self.email.value, sourceIP: nil) }
        try await fixture.attempts.succeeded(account: Self.email.value, sourceIP: nil)
        for _ in 0..<5 { try await fixture.attempts.begin(account: Self.email.value, sourceIP: nil) }
    }

    @Test func twentyRacingTriesCompareExactlyFive() async throws {
        let fixture = try Fixture()
        let allowed = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask { (try? await fixture.attempts.begin(account: Self.email.value, sourceIP: nil)) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(allowed == 5)
    }

    @Test func thirtyFailuresFromOneSourceIn5MinutesAre429() async throws {
        let fixture = try Fixture()
        for index in 0..<30 {
            try await fixture.attempts.begin(account: "user\(index)@example.com", sourceIP: "192.0.2.7")
        }
        await #expect(throws: SignInError.rateLimited(retryAfter: 300)) {
            try await fixture.attempts.begin(account: "one-more@example.com", sourceIP: "192.0.2.7")
        }
        // A right password takes its try back: only failures count.
        let other = "198.51.100.9"
        for index in 0..<30 {
            let email = EmailAddress("ok\(index)@example.com")!
            try await fixture.attempts.begin(account: email.value, sourceIP: other)
            try await fixture.attempts.succeeded(account: email.value, sourceIP: other)
        }
        try await fixture.attempts.begin(account: "ok-more@example.com", sourceIP: other)
    }
}
