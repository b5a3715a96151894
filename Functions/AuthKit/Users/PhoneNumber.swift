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

    public var description: String { value }
}
