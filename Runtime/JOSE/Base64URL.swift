#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Base64url without padding (RFC 7515 §2), strict: decoding refuses padding, white space and
/// any character outside the URL-safe alphabet, and a final group whose unused bits are not zero.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// Encodes `bytes` without padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(alphabet[Int(value >> 6 & 63)])
            output.append(alphabet[Int(value & 63)])
            index += 3
        }
        let rest = input.count - index
        if rest == 1 {
            let value = UInt32(input[index]) << 16
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
        } else if rest == 2 {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(alphabet[Int(value >> 6 & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded base64url; nil for anything that is not exactly that.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(bytes: text.utf8)
    }

    /// Decodes the base64url text in `bytes` (ASCII), as `decode(_:)` does, without first making
    /// a string of it: the token verifier decodes straight from the token's bytes.
    public static func decode(bytes input: some Collection<UInt8>) -> [UInt8]? {
        if let result = input.withContiguousStorageIfAvailable({ decode(buffer: $0) }) { return result }
        return Array(input).withUnsafeBufferPointer { decode(buffer: $0) }
    }

    private static func decode(buffer input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let rest = input.count % 4
        if rest == 1 { return nil }
        let whole = input.count - rest
        let capacity = whole / 4 * 3 + (rest == 0 ? 0 : rest - 1)
        // Four characters to three bytes per step, over raw memory: the table is read through a
        // pointer, not the global array (whose every access would pay for its lazy
        // initialisation check and bounds checks). Invalid characters map to 0xFF, so one test of
        // the high bits of the four values finds any of them.
        return reverse.withUnsafeBufferPointer { table -> [UInt8]? in
            var valid = true
            let output = [UInt8](unsafeUninitializedCapacity: capacity) { output, written in
                var index = 0
                var count = 0
                while index < whole {
                    let a = table[Int(input[index])]
                    let b = table[Int(input[index + 1])]
                    let c = table[Int(input[index + 2])]
                    let d = table[Int(input[index + 3])]
                    guard (a | b | c | d) & 0xC0 == 0 else {
                        valid = false
                        break
                    }
                    let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[count] = UInt8(truncatingIfNeeded: value >> 16)
                    output[count + 1] = UInt8(truncatingIfNeeded: value >> 8)
                    output[count + 2] = UInt8(truncatingIfNeeded: value)
                    index += 4
                    count += 3
                }
                if valid && rest > 0 {
                    // Two characters carry one byte, three carry two; the bits left over must be
                    // zero, so each byte string has exactly one encoding.
                    var value: UInt32 = 0
                    for offset in 0..<rest {
                        let digit = table[Int(input[whole + offset])]
                        if digit & 0xC0 != 0 { valid = false }
                        value = value << 6 | UInt32(digit & 0x3F)
                    }
                    if rest == 2 {
                        if value & 0xF != 0 { valid = false }
                        output[count] = UInt8(truncatingIfNeeded: value >> 4)
                        count += 1
                    } else {
                        if value & 0x3 != 0 { valid = false }
                        output[count] = UInt8(truncatingIfNeeded: value >> 10)
                        output[count + 1] = UInt8(truncatingIfNeeded: value >> 2)
                        count += 2
                    }
                }
                written = valid ? count : 0
            }
            return valid ? output : nil
        }
    }
}
