import AuthKit
import Testing

/// The OTP secret as the stack's Secrets Manager secret generates it: 64 letters and digits.
struct OTPSecretTests {
    @Test func aGeneratedSecretOfLettersAndDigitsIsAKeyOfFortyEightBytes() throws {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        let generated = String((0..<64).map { _ in letters.randomElement()! })
        #expect(throws: Never.self) { try OTPSecret(environment: ["OTP_SECRET": generated]) }
        // Shorter than 32 bytes is refused: 42 characters are 31 bytes.
        #expect(throws: SettingsError.self) { try OTPSecret(environment: ["OTP_SECRET": String(generated.prefix(42))]) }
    }
}
