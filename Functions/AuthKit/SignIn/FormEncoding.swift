#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `application/x-www-form-urlencoded` and query strings: unreserved characters as they are,
/// every other byte `%XX` (a space too, so the same text serves a URL's query).
public enum FormEncoding {
    /// `name=value` pairs joined by `&`, both escaped.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// `text`'s UTF-8 in standard, padded base64 (as HTTP Basic authentication takes it).
    public static func base64(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
    }

    /// `text` with every byte but the unreserved ones as `%XX`.
    public static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(digits[Int(byte >> 4)])
                out.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
