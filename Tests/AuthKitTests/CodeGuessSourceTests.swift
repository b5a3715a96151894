import AuthKit
import Testing

/// IPv6 sources are counted per /64: one subscriber's network hands out addresses freely.
struct CodeGuessSourceTests {
    @Test(arguments: [
        ("192.0.2.7", "192.0.2.7"), ("2001:db8:0:1::5", "2001:db8:0:1::/64"),
        ("2001:0db8:0000:0001:aaaa:bbbb:cccc:dddd", "2001:db8:0:1::/64"), ("2001:DB8::1", "2001:db8:0:0::/64"),
        ("::1", "0:0:0:0::/64"),
    ])
    func sourcesAreCountedPerAddressOrSlash64(address: String, key: String) {
        #expect(CodeGuesses.sourceKey(address) == key)
    }
}
