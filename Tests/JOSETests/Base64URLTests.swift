import Foundation
import Testing

@testable import JOSE

struct Base64URLTests {
    @Test(arguments: [
        ([UInt8](), ""),
        ([0x66], "Zg"),
        ([0x66, 0x6f], "Zm8"),
        ([0x66, 0x6f, 0x6f], "Zm9v"),
        ([0xfb, 0xff, 0xbf], "-_-_"),
        ([0x01, 0x00, 0x01], "AQAB"),
    ])
    func roundTrips(bytes: [UInt8], text: String) {
        #expect(Base64URL.encode(bytes) == text)
        #expect(Base64URL.decode(text) == bytes)
    }

    @Test(arguments: [
        "Zg==",  // padding
        "Zm9v\n",  // white space
        "Zm 9v",
        "Zm+v",  // standard alphabet, not URL-safe
        "Zm/v",
        "Z",  // impossible length
        "Zh",  // non-zero leftover bits: a second spelling of "f"
        "Zm9",  // non-zero leftover bits: a second spelling of "fo"
    ])
    func refusesAnythingButCanonicalUnpaddedBase64URL(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func everyByteStringHasExactlyOneEncoding() {
        #expect(Base64URL.decode("Zm8") == [0x66, 0x6f])
        #expect(Base64URL.decode("Zm9") == nil)
        #expect(Base64URL.decode("Zm-") == nil)
    }

    /// Every length from 0 to 64 (each remainder, whole groups and tails), against Foundation's
    /// standard base64 with the alphabet translated and the padding removed.
    @Test func agreesWithFoundationAtEveryLength() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...64 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.decode(expected) == bytes, "length \(count)")
        }
    }

    /// A bad character is found wherever it is: in any of the four places of a group, in the
    /// last whole group, and in a two- or three-character tail.
    @Test func refusesABadCharacterAtEveryPosition() {
        let text = Array(Base64URL.encode((0..<20).map { UInt8($0) }).utf8)  // 27 characters
        for position in text.indices {
            for bad in ["=", ".", "+", "/", " ", "\u{80}"] {
                var broken = text
                broken.replaceSubrange(position...position, with: Array(bad.utf8))
                #expect(Base64URL.decode(bytes: broken) == nil, "\(bad) at \(position)")
            }
        }
    }
}
