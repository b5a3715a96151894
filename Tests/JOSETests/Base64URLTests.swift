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
}
