import AuthKit
import Foundation
import GatehouseJSON
import Store
import Testing

/// Phone codes on a real store file, texted to the outbox, with a clock the tests set.
struct PhoneCodesTests {
    static let phone = PhoneNumber("+14155550100")!

    struct Fixture {
        let clock: TestClock
        let store: SQLiteStore
        let codes: PhoneCodes

        init() throws {
            clock = TestClock(SessionFixtures.start)
            store = try SessionFixtures.store(clock: clock)
            codes = PhoneCodes(
                store: store, clock: clock, sender: OutboxSender(store: store, clock: clock),
                secret: try OTPSecret(bytes: Array(repeating: 7, count: 32)))
        }

        /// The code of the last text to `phone`.
        func lastCode(_ phone: PhoneNumber = PhoneCodesTests.phone) async throws -> String {
            let texts = try await store.query(
                OutboxSender.table, partition: .string(phone.value), sortKey: nil, limit: nil, ascending: true)
            return try #require(texts.last?["secret"]?.stringValue)
        }

        /// Any six digits but `code`.
        func wrong(_ code: String) -> String { code == "000000" ? "000001" : "000000" }
    }

    @Test func aTextedCodeWorksOnceAndIsStoredOnlyAsAnHMAC() async throws {
        let fixture = try Fixture()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1")
        let code = try await fixture.lastCode()
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        let texts = try await fixture.store.scan(OutboxSender.table, limit: nil)
        #expect(texts.first?["text"] == .string("Your code is \(code)"))
        #expect(texts.first?["channel"] == "sms")
        let stored = try await fixture.store.scan(PhoneCodes.table, limit: nil)
        #expect(stored.count == 1)
        #expect(!"\(stored)".contains(code))

        try await fixture.codes.verify(Self.phone, code: code, sourceIP: nil, app: "demo")
        await #expect(throws: SignInError.codeRefused) {
            try await fixture.codes.verify(Self.phone, code: code, sourceIP: nil, app: "demo")
        }
    }

    /// A request while the code is live texts the same code again and gives it five minutes
    /// more from then; five minutes after the last text it is dead, and the next request is a
    /// fresh code.
    @Test func aRequestWhileTheCodeIsLiveTextsTheSameCodeAgain() async throws {
        let fixture = try Fixture()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1")
        let first = try await fixture.lastCode()
        let issue = try await fixture.store.scan(PhoneCodes.table, limit: nil).first?["issue"]
        fixture.clock.set(SessionFixtures.start + 240)
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.2")
        #expect(try await fixture.lastCode() == first)
        #expect(try await fixture.store.scan(OutboxSender.table, limit: nil).count == 2)
        fixture.clock.set(SessionFixtures.start + 240 + PhoneCodes.lifetime - 1)
        try await fixture.codes.verify(Self.phone, code: first, sourceIP: nil, app: "demo")

        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1")
        #expect(try await fixture.store.scan(PhoneCodes.table, limit: nil).first?["issue"] != issue)
        let second = try await fixture.lastCode()
        fixture.clock.set(SessionFixtures.start + 240 + 2 * PhoneCodes.lifetime - 1)
        await #expect(throws: SignInError.codeRefused) {
            try await fixture.codes.verify(Self.phone, code: second, sourceIP: nil, app: "demo")
        }
    }

    /// A request with another PKCE challenge (a stranger's) gets a code of its own, bound to its
    /// challenge, and never touches the owner's: the owner's verifier still uses the owner's code,
    /// and the other code works only with the other verifier. Before, the stranger's request
    /// replaced the code the owner had received (and a first fix bound the owner to the
    /// stranger's challenge instead).
    @Test func anotherChallengeGetsACodeOfItsOwnAndNeverTouchesTheOwners() async throws {
        let fixture = try Fixture()
        let owner = String(repeating: "v", count: 43)
        let stranger = String(repeating: "w", count: 43)
        try await fixture.codes.request(
            Self.phone, app: "demo", sourceIP: "192.0.2.1", codeChallenge: PKCE.challenge(for: owner))
        let code = try await fixture.lastCode()
        fixture.clock.set(SessionFixtures.start + 1)
        try await fixture.codes.request(
            Self.phone, app: "demo", sourceIP: "198.51.100.1", codeChallenge: PKCE.challenge(for: stranger))
        let other = try await fixture.lastCode()
        #expect(try await fixture.store.scan(PhoneCodes.table, limit: nil).count == 2)
        if other != code {
            await #expect(throws: SignInError.codeRefused) {
                try await fixture.codes.verify(Self.phone, code: other, codeVerifier: owner, sourceIP: nil, app: "demo")
            }
        }
        try await fixture.codes.verify(Self.phone, code: code, codeVerifier: owner, sourceIP: nil, app: "demo")
        try await fixture.codes.verify(Self.phone, code: other, codeVerifier: stranger, sourceIP: nil, app: "demo")
    }

    /// Texting the live code again never keeps it alive past 15 minutes after its issue; after
    /// them, a request issues a fresh one.
    @Test func aCodeIsTextedAgainForFifteenMinutesAtMost() async throws {
        let fixture = try Fixture()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1")
        let first = try await fixture.lastCode()
        for minute in [4.0, 8, 12, 14.5] {
            fixture.clock.set(SessionFixtures.start + minute * 60)
            try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "198.51.100.\(Int(minute))")
            #expect(try await fixture.lastCode() == first)
        }
        // The last resends gave it until 15 minutes after its issue, not 17 or 19.5.
        let issues = try await fixture.store.scan(PhoneCodes.table, limit: nil)
        #expect(issues.first?["expiresAt"]?.numberValue == (SessionFixtures.start + PhoneCodes.maximumLifetime) * 1000)
        fixture.clock.set(SessionFixtures.start + PhoneCodes.maximumLifetime)
        await #expect(throws: SignInError.codeRefused) {
            try await fixture.codes.verify(Self.phone, code: first, sourceIP: nil, app: "demo")
        }
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1")
        let fresh = try await fixture.store.scan(PhoneCodes.table, limit: nil)
        #expect(fresh.first?["issuedAt"]?.numberValue == SessionFixtures.start + PhoneCodes.maximumLifetime)
    }

    /// Requests are counted per number and source: three from one source, then that source is
    /// refused, and nothing more is texted for it.
    @Test func threeRequestsAnHourPerNumberFromOneSource() async throws {
        let fixture = try Fixture()
        for _ in 0..<3 { try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1") }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1")
        }
        // Another address of the same IPv6 network is the same source.
        for _ in 0..<3 { try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "2001:db8::1") }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "2001:db8::2")
        }
        #expect(try await fixture.store.scan(OutboxSender.table, limit: nil).count == 6)
    }

    /// A stranger's requests from their own sources never use up the owner's: after a stranger's
    /// three (and their 429), the owner's request is answered, with the code that is live.
    /// Before, the number had one allowance of 3 an hour, whoever asked.
    @Test func aStrangersRequestsNeverUseUpTheOwners() async throws {
        let fixture = try Fixture()
        for _ in 0..<3 { try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "198.51.100.1") }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "198.51.100.1")
        }
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1")
        try await fixture.codes.verify(Self.phone, code: try await fixture.lastCode(), sourceIP: nil, app: "demo")
    }

    /// Wrong codes count against the code that was issued: after five it is dead, even to the
    /// right code, but the number is not locked: the owner's next request is a fresh code, and
    /// it works. Before, five wrong codes from anyone locked the number for an hour.
    @Test func wrongCodesKillTheCodeButNeverLockTheNumber() async throws {
        let fixture = try Fixture()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        let code = try await fixture.lastCode()
        for _ in 0..<PhoneCodes.triesPerCode {
            await #expect(throws: SignInError.codeRefused) {
                try await fixture.codes.verify(
                    Self.phone, code: fixture.wrong(code), sourceIP: "198.51.100.1", app: "demo")
            }
        }
        await #expect(throws: SignInError.codeRefused) {
            try await fixture.codes.verify(Self.phone, code: code, sourceIP: nil, app: "demo")
        }
        fixture.clock.set(SessionFixtures.start + 1)  // the outbox sorts by time
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1")
        let fresh = try await fixture.lastCode()
        try await fixture.codes.verify(Self.phone, code: fresh, sourceIP: "192.0.2.1", app: "demo")
    }

    /// A stranger who never received a code guessing at a number, however many times, never
    /// keeps the owner's code from working: a code issued after the guesses has tries of its own.
    @Test func guessesBeforeACodeIsIssuedDoNotCountAgainstIt() async throws {
        let fixture = try Fixture()
        for index in 0..<13 {
            await #expect(throws: SignInError.codeRefused) {
                try await fixture.codes.verify(Self.phone, code: "123456", sourceIP: "198.51.100.\(index)", app: "demo")
            }
        }
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: "192.0.2.1")
        try await fixture.codes.verify(Self.phone, code: try await fixture.lastCode(), sourceIP: nil, app: "demo")
    }

    /// Good tries never use up a number: twelve sign-ins in a day, each with a right code.
    @Test func rightCodesNeverUseUpTheNumber() async throws {
        let fixture = try Fixture()
        for hour in 0..<12 {
            fixture.clock.set(SessionFixtures.start + Double(hour) * 3600)
            try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
            try await fixture.codes.verify(Self.phone, code: try await fixture.lastCode(), sourceIP: nil, app: "demo")
        }
    }

    /// Fifty wrong codes at once: every one is counted on the code before it is compared, so
    /// at most five are, and the code is dead after them, even to the right code.
    @Test func racingWrongCodesKillTheCodeAfterFive() async throws {
        let fixture = try Fixture()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        let code = try await fixture.lastCode()
        let codes = fixture.codes
        let outcomes = try await withThrowingTaskGroup(of: SignInError?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do {
                        try await codes.verify(Self.phone, code: fixture.wrong(code), sourceIP: nil, app: "demo")
                        return nil
                    } catch let error as SignInError {
                        return error
                    }
                }
            }
            return try await group.reduce(into: [SignInError?]()) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { $0 == .codeRefused })
        let tries = try await fixture.store.scan(PhoneCodes.table, limit: nil).first?["tries"]?.numberValue
        #expect((tries ?? 0) >= Double(PhoneCodes.triesPerCode))
        await #expect(throws: SignInError.codeRefused) {
            try await fixture.codes.verify(Self.phone, code: code, sourceIP: nil, app: "demo")
        }
    }

    /// A number of its own for each `index`, none of them `phone`.
    static func number(_ index: Int) -> PhoneNumber {
        PhoneNumber("+1650555\(PhoneCodes.sixDigits(UInt32(index)).suffix(4))")!
    }

    /// One source guessing across many numbers, a few tries each (under every number's lock):
    /// past the source's limit it is refused before any code is compared, even a right one;
    /// another source is not. Before, only each number's tries were counted.
    @Test func guessesFromOneSourceAcrossNumbersAreLimited() async throws {
        let fixture = try Fixture()
        for index in 0..<CodeGuesses.perSourceIPLimit {
            await #expect(throws: SignInError.codeRefused) {
                try await fixture.codes.verify(Self.number(index), code: "123456", sourceIP: "192.0.2.7", app: "demo")
            }
        }
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        let code = try await fixture.lastCode()
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.codes.verify(Self.phone, code: code, sourceIP: "192.0.2.7", app: "demo")
        }
        try await fixture.codes.verify(Self.phone, code: code, sourceIP: "192.0.2.8", app: "demo")
    }

    /// A right code takes its try back: what a source's limit counts is wrong codes.
    @Test func aRightCodeIsNotCountedAgainstItsSource() async throws {
        let fixture = try Fixture()
        func wrong(_ index: Int) async throws {
            try await fixture.codes.verify(Self.number(index), code: "123456", sourceIP: "192.0.2.7", app: "demo")
        }
        for index in 0..<CodeGuesses.perSourceIPLimit - 1 {
            await #expect(throws: SignInError.codeRefused) { try await wrong(index) }
        }
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        try await fixture.codes.verify(
            Self.phone, code: try await fixture.lastCode(), sourceIP: "192.0.2.7", app: "demo")
        await #expect(throws: SignInError.codeRefused) { try await wrong(100) }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) { try await wrong(101) }
    }

    /// Many sources, each under its own limit, guessing across one app's numbers: past the app's
    /// limit every source is refused for that app until the window ends; another app is not.
    @Test func guessesAcrossOneAppAreLimited() async throws {
        let fixture = try Fixture()
        for index in 0..<CodeGuesses.perAppLimit {
            let source = "198.51.100.\(index / (CodeGuesses.perSourceIPLimit - 1))"
            await #expect(throws: SignInError.codeRefused) {
                try await fixture.codes.verify(Self.number(index % 5000), code: "123456", sourceIP: source, app: "demo")
            }
        }
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        let code = try await fixture.lastCode()
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.codes.verify(Self.phone, code: code, sourceIP: "203.0.113.1", app: "demo")
        }
        try await fixture.codes.verify(Self.phone, code: code, sourceIP: "203.0.113.1", app: "other")
        fixture.clock.set(SessionFixtures.start + 3600)
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        try await fixture.codes.verify(
            Self.phone, code: try await fixture.lastCode(), sourceIP: "203.0.113.1", app: "demo")
    }

    @Test(
        arguments: [
            ("+1 (415) 555-0100", nil, "+14155550100"), ("(415) 555-0100", "US", "+14155550100"),
            ("1-415-555-0100", "us", "+14155550100"), ("07911 123456", "GB", "+447911123456"),
            ("06 12 34 56 78", "FR", "+33612345678"), ("02 1234 5678", "IT", "+390212345678"),
            ("030 1234567", "DE", "+49301234567"),
        ] as [(String, String?, String)])
    func nationalNumbersBecomeE164(text: String, country: String?, expected: String) {
        #expect(PhoneNumber(text, country: country)?.value == expected)
    }

    @Test(
        arguments: [("555-0100", nil), ("555-0100", "ZZ"), ("abc", "US"), ("", "US"), ("0", "GB")]
            as [(String, String?)])
    func numbersThatCannotBeAreRefused(text: String, country: String?) {
        #expect(PhoneNumber(text, country: country) == nil)
    }

    @Test func codesAreUniformSixDigitStrings() {
        #expect(PhoneCodes.sixDigits(0) == "000000")
        #expect(PhoneCodes.sixDigits(472_918) == "472918")
        #expect(PhoneCodes.sixDigits(999_999) == "999999")
    }

    @Test func theSecretMustBeLongEnoughAndComesFromAFileForLocalRuns() throws {
        #expect(throws: SettingsError.invalid("OTP_SECRET", "must be at least 32 bytes")) {
            try OTPSecret(environment: ["OTP_SECRET": "c2hvcnQ"])
        }
        #expect(throws: SettingsError.missing("OTP_SECRET")) { try OTPSecret(environment: [:]) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("otp-\(UUID().uuidString)").path
        _ = try OTPSecret(environment: ["OTP_SECRET_FILE": path])
        let first = try String(contentsOfFile: path, encoding: .utf8)
        _ = try OTPSecret(environment: ["OTP_SECRET_FILE": path])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
