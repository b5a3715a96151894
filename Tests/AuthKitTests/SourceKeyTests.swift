import StoreCore
import Testing

@testable import AuthKit

/// Every per-source limit counts a source the same way: an IPv4 address as it is, an IPv6
/// address as its /64 (one subscriber's network hands out addresses freely). Keyed on the whole
/// IPv6 address, 40 addresses of one /64 were never limited at the password grant, sends,
/// reauthentication or address changes.
struct SourceKeyTests {
    @Test(arguments: [
        ("192.0.2.7", "192.0.2.7"), ("2001:db8:0:1::5", "2001:db8:0:1::/64"),
        ("2001:0db8:0000:0001:aaaa:bbbb:cccc:dddd", "2001:db8:0:1::/64"), ("2001:DB8::1", "2001:db8:0:0::/64"),
        ("::1", "0:0:0:0::/64"), ("2001:db8:0:1::/64", "2001:db8:0:1::/64"),
    ])
    func sourcesAreCountedPerAddressOrSlash64(address: String, key: String) {
        #expect(SourceKey.of(address) == key)
    }

    /// Each rule that limits a source: two addresses of one /64 share its counter, and two
    /// IPv4 addresses do not.
    @Test(arguments: [
        PasswordAttempts.perSourceIP, Reauthentication.perSourceIP, PasswordSignUp.perSourceIP,
        EmailChanges.perSourceIP, CodeGuesses.phoneCodes.perSourceIP, CodeGuesses.emailCodes.perSourceIP,
        PhoneCodes.perSourceIP, MagicLinks.perSourceIP, FlowCodes.perSourceIP,
    ])
    func oneSlash64IsOneSource(rule: RateLimit) async throws {
        let clock = TestClock(SessionFixtures.start)
        let limiter = RateLimiter(store: try SessionFixtures.store(clock: clock), clock: clock)
        #expect(try await limiter.hit(rule, subject: "2001:db8:0:1::a") == .allowed(count: 1))
        #expect(try await limiter.hit(rule, subject: "2001:db8:0:1:ffff::b") == .allowed(count: 2), "\(rule.name)")
        #expect(try await limiter.hit(rule, subject: "192.0.2.7") == .allowed(count: 1))
        #expect(try await limiter.hit(rule, subject: "192.0.2.8") == .allowed(count: 1))
    }
}
