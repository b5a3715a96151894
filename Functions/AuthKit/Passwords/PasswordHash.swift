#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A stored password hash in the PHC string format: `$scrypt$ln=12,r=8,p=1$SALT$KEY`, the salt
/// (16 random bytes) and the derived key (32 bytes) in base64 without padding. Self-describing,
/// so the parameters travel with the hash.
public struct PasswordHash: Sendable, Equatable, CustomStringConvertible {
    public let parameters: ScryptParameters
    public let salt: [UInt8]
    public let key: [UInt8]

    public init(parameters: ScryptParameters, salt: [UInt8], key: [UInt8]) {
        self.parameters = parameters
        self.salt = salt
        self.key = key
    }

    /// Reads a stored hash; nil when it is not one this code made or can check safely.
    public init?(encoded: String) {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { return nil }
        guard let parameters = ScryptParameters(text: parts[2]), parameters.isAcceptable,
            let salt = Self.decode(parts[3]), let key = Self.decode(parts[4]), salt.count >= 16, key.count == 32
        else { return nil }
        self.init(parameters: parameters, salt: salt, key: key)
    }

    public var description: String {
        "$scrypt$\(parameters)$\(Self.encode(salt))$\(Self.encode(key))"
    }

    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        var padded = String(text)
        while padded.utf8.count % 4 != 0 { padded += "=" }
        return Data(base64Encoded: padded).map(Array.init)
    }
}
