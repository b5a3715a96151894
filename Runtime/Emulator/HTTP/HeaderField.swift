/// What may go on an HTTP/1.1 header line (RFC 9110): a name of token characters, a value
/// without CR, LF or NUL. A function's answer is written onto the wire by the emulator; a value
/// with a line break in it would let the function split the response.
enum HeaderField {
    /// A token: visible ASCII except the separators.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                byte > 0x20 && byte < 0x7F && !separators.contains(byte)
            }
    }

    /// Any text but CR, LF and NUL (obsolete line folding is not allowed either).
    static func isValidValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    private static let separators = Set("\"(),/:;<=>?@[\\]{}".utf8)
}
