/// A phone number in E.164 as users are keyed by it: `+`, a country code and the subscriber
/// number, 8 to 15 digits in all, the first not 0. Spaces, dots, dashes and parentheses a user
/// types are dropped, so `+1 (415) 555-0100` and `+14155550100` are one account.
public struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// The normalised number, e.g. `+14155550100`.
    public let value: String

    /// Normalises `text`; nil when it is not an international number in E.164.
    public init?(_ text: String) {
        var digits: [UInt8] = []
        var sawPlus = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "+") where !sawPlus && digits.isEmpty: sawPlus = true
            case UInt8(ascii: "0")...UInt8(ascii: "9") where sawPlus: digits.append(byte)
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"):
                continue
            default: return nil
            }
        }
        guard sawPlus, (8...15).contains(digits.count), digits[0] != UInt8(ascii: "0") else { return nil }
        value = "+" + String(decoding: digits, as: UTF8.self)
    }

    /// A number as a person types it for `country` (ISO 3166-1 alpha-2, any case): an
    /// international one (`+15551234567`, checked as `init(_:)` checks it) whatever the country,
    /// or a national one (`(555) 123-4567` for `US`, `07911 123456` for `GB`), put in E.164 with
    /// the country's calling code. National numbers drop their trunk prefix (a leading `0`, or
    /// NANP's leading `1`), except where the 0 belongs to the number (Italy). Nil when it cannot
    /// be a number of that country.
    public init?(_ text: String, country: String?) {
        if text.drop(while: { $0 == " " }).hasPrefix("+") {
            self.init(text)
            return
        }
        guard let country = country?.uppercased(), let code = CallingCodes.byCountry[country] else { return nil }
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if !" -.()".contains(character) {
                return nil
            }
        }
        if code == "1", digits.count == 11, digits.hasPrefix("1") { digits.removeFirst() }
        if !CallingCodes.keepsLeadingZero.contains(country), digits.hasPrefix("0") { digits.removeFirst() }
        guard !digits.isEmpty else { return nil }
        self.init("+\(code)\(digits)")
    }

    public var description: String { value }
}
