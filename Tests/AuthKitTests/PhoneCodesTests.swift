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

    @Test func aNewRequestReplacesTheCodeAndCodesExpireAfterFiveMinutes() async throws {
        let fixture = try Fixture()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        let first = try await fixture.lastCode()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        let second = try await fixture.lastCode()
        if first != second {
            await #expect(throws: SignInError.codeRefused) {
                try await fixture.codes.verify(Self.phone, code: first, sourceIP: nil, app: "demo")
            }
        }
        fixture.clock.set(SessionFixtures.start + PhoneCodes.lifetime)
        await #expect(throws: SignInError.codeRefused) {
            try await fixture.codes.verify(Self.phone, code: second, sourceIP: nil, app: "demo")
        }
    }

    @Test func threeRequestsAnHourPerNumber() async throws {
        let fixture = try Fixture()
        for _ in 0..<3 { try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil) }
        await #expect(throws: SignInError.rateLimited(retryAfter: 3600)) {
            try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        }
        #expect(try await fixture.store.scan(OutboxSender.table, limit: nil).count == 3)
    }

    /// Five wrong codes, then even the right one is refused for an hour (the lock is checked
    /// first); after the hour it works.
    @Test func fiveWrongCodesLockTheNumberForAnHour() async throws {
        let fixture = try Fixture()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        let code = try await fixture.lastCode()
        for _ in 0..<5 {
            await #expect(throws: SignInError.codeRefused) {
                try await fixture.codes.verify(Self.phone, code: fixture.wrong(code), sourceIP: nil, app: "demo")
            }
        }
        await #expect(throws: SignInError.locked(retryAfter: 3600)) {
            try await fixture.codes.verify(Self.phone, code: code, sourceIP: nil, app: "demo")
        }
        fixture.clock.set(SessionFixtures.start + 1800)
        await #expect(throws: SignInError.locked(retryAfter: 1800)) {
            try await fixture.codes.verify(Self.phone, code: code, sourceIP: nil, app: "demo")
        }
        fixture.clock.set(SessionFixtures.start + 3600)
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        try await fixture.codes.verify(Self.phone, code: try await fixture.lastCode(), sourceIP: nil, app: "demo")
    }

    @Test func tenWrongCodesInADayLockItForADay() async throws {
        let fixture = try Fixture()
        for hour in 0..<2 {
            fixture.clock.set(SessionFixtures.start + Double(hour) * 3600)
            for _ in 0..<5 {
                await #expect(throws: SignInError.codeRefused) {
                    try await fixture.codes.verify(Self.phone, code: "123456", sourceIP: nil, app: "demo")
                }
            }
        }
        fixture.clock.set(SessionFixtures.start + 2 * 3600)
        await #expect(throws: SignInError.locked(retryAfter: 86400)) {
            try await fixture.codes.verify(Self.phone, code: "123456", sourceIP: nil, app: "demo")
        }
    }

    /// Good tries count toward neither lock: twelve sign-ins in a day, each with a right code on
    /// its first try, never lock the number (before, the day's count took right codes too and
    /// the eleventh try locked it for a day).
    @Test func rightCodesCountTowardNeitherLock() async throws {
        let fixture = try Fixture()
        for hour in 0..<12 {
            fixture.clock.set(SessionFixtures.start + Double(hour) * 3600)
            try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
            try await fixture.codes.verify(Self.phone, code: try await fixture.lastCode(), sourceIP: nil, app: "demo")
        }
    }

    /// Failed tries keep counting across a right code: three wrong, one right, two wrong is five
    /// failures in the hour, and the next try is locked for an hour (before, the right code
    /// forgot the three).
    @Test func failedTriesKeepCountingAcrossARightCode() async throws {
        let fixture = try Fixture()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        let first = try await fixture.lastCode()
        for _ in 0..<3 {
            await #expect(throws: SignInError.codeRefused) {
                try await fixture.codes.verify(Self.phone, code: fixture.wrong(first), sourceIP: nil, app: "demo")
            }
        }
        try await fixture.codes.verify(Self.phone, code: first, sourceIP: nil, app: "demo")
        fixture.clock.set(SessionFixtures.start + 60)
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        let second = try await fixture.lastCode()
        for _ in 0..<2 {
            await #expect(throws: SignInError.codeRefused) {
                try await fixture.codes.verify(Self.phone, code: fixture.wrong(second), sourceIP: nil, app: "demo")
            }
        }
        await #expect(throws: SignInError.locked(retryAfter: 3600)) {
            try await fixture.codes.verify(Self.phone, code: second, sourceIP: nil, app: "demo")
        }
    }

    /// Ten failures in a day, with right codes between them, lock the number for a day; the
    /// right codes do not bring the lock earlier.
    @Test func tenFailuresInADayLockForADayWhateverRightCodesCameBetween() async throws {
        let fixture = try Fixture()
        for hour in 0..<3 {
            fixture.clock.set(SessionFixtures.start + Double(hour) * 3600)
            try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
            let code = try await fixture.lastCode()
            for _ in 0..<(hour < 2 ? 4 : 2) {
                await #expect(throws: SignInError.codeRefused) {
                    try await fixture.codes.verify(Self.phone, code: fixture.wrong(code), sourceIP: nil, app: "demo")
                }
            }
            if hour < 2 { try await fixture.codes.verify(Self.phone, code: code, sourceIP: nil, app: "demo") }
        }
        await #expect(throws: SignInError.locked(retryAfter: 86400)) {
            try await fixture.codes.verify(Self.phone, code: "123456", sourceIP: nil, app: "demo")
        }
    }

    /// Fifty wrong codes at once: exactly five are compared; the rest find the number locked.
    @Test func racingWrongCodesLockAtExactlyFive() async throws {
        let fixture = try Fixture()
        try await fixture.codes.request(Self.phone, app: "demo", sourceIP: nil)
        let wrong = fixture.wrong(try await fixture.lastCode())
        let codes = fixture.codes
        let outcomes = try await withThrowingTaskGroup(of: SignInError.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do {
                        try await codes.verify(Self.phone, code: wrong, sourceIP: nil, app: "demo")
                        return .codeRefused
                    } catch let error as SignInError {
                        return error
                    }
                }
            }
            return try await group.reduce(into: [SignInError]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .codeRefused }.count == 5)
        #expect(outcomes.filter { if case .locked = $0 { true } else { false } }.count == 45)
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
