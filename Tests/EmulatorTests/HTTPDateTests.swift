import Foundation
import Testing

@testable import Emulator

/// The `Date` header the local API sends, by arithmetic, against Foundation's formatter.
struct HTTPDateTests {
    @Test func knownDates() {
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(1_795_337_978) == "Sun, 22 Nov 2026 08:59:38 GMT")
        #expect(HTTPDate.format(-1) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }

    @Test func agreesWithFoundationAcrossCenturies() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SystemRandomNumberGenerator()
        // 1900 to 2200, and every day boundary of a leap-year February.
        var seconds = (0..<2000).map { _ in Int.random(in: -2_208_988_800...7_258_118_400, using: &generator) }
        seconds += (0..<4).map { 951_696_000 + $0 * 86_400 - 1 }
        for second in seconds {
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(second)))
            #expect(HTTPDate.format(second) == expected, "\(second)")
        }
    }

    @Test func nowIsThisSecond() {
        let before = Int(Date().timeIntervalSince1970)
        let now = HTTPDate.now()
        let after = Int(Date().timeIntervalSince1970)
        #expect(now == HTTPDate.format(before) || now == HTTPDate.format(after))
    }
}
