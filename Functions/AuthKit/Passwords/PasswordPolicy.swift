/// What a new password must be: at least `PASSWORD_MIN_LENGTH` characters (8 by default), at
/// most 256 bytes, the character classes `PASSWORD_REQUIRE` names (`lower,upper,digit,symbol`;
/// none by default, as NIST SP 800-63B advises), not the account's email address or its local
/// part, and not one of the 10,000 most common passwords.
public struct PasswordPolicy: Sendable, Equatable {
    /// A character class `PASSWORD_REQUIRE` can ask for.
    public enum CharacterClass: String, Sendable, CaseIterable {
        case lower, upper, digit, symbol
    }

    /// Why a password is refused, in Supabase's `weak_password.reasons` words.
    public enum Weakness: String, Sendable, Equatable {
        /// Too short or too long.
        case length
        /// A required character class is missing.
        case characters
        /// Common, or the account's own address.
        case pwned
    }

    public static let maximumBytes = 256

    public var minimumLength: Int
    public var required: Set<CharacterClass>

    public init(minimumLength: Int = 8, required: Set<CharacterClass> = []) {
        self.minimumLength = minimumLength
        self.required = required
    }

    public init(environment: [String: String]) throws(SettingsError) {
        let reader = EnvironmentReader(environment: environment)
        var minimum = 8
        if let text = reader.optional("PASSWORD_MIN_LENGTH") {
            guard let value = Int(text), (6...128).contains(value) else {
                throw .invalid("PASSWORD_MIN_LENGTH", "must be a number from 6 to 128")
            }
            minimum = value
        }
        var required: Set<CharacterClass> = []
        for name in reader.list(reader.optional("PASSWORD_REQUIRE") ?? "") {
            guard let kind = CharacterClass(rawValue: name) else {
                throw .invalid("PASSWORD_REQUIRE", "\"\(name)\" is not one of lower, upper, digit, symbol")
            }
            required.insert(kind)
        }
        self.init(minimumLength: minimum, required: required)
    }

    /// The reasons `password` is refused for the account of `email`; empty when it is accepted.
    public func weaknesses(of password: String, email: String?) -> [Weakness] {
        var found: [Weakness] = []
        if password.count < minimumLength || password.utf8.count > Self.maximumBytes { found.append(.length) }
        if !required.allSatisfy({ Self.has($0, in: password) }) { found.append(.characters) }
        let lowered = password.lowercased()
        let own = email.map { [$0.lowercased(), String($0.lowercased().split(separator: "@").first ?? "")] } ?? []
        if CommonPasswords.contains(password) || own.contains(lowered) { found.append(.pwned) }
        return found
    }

    private static func has(_ kind: CharacterClass, in password: String) -> Bool {
        password.unicodeScalars.contains { scalar in
            switch kind {
            case .lower: scalar.properties.isLowercase
            case .upper: scalar.properties.isUppercase
            case .digit: ("0"..."9").contains(scalar)
            case .symbol:
                !scalar.properties.isAlphabetic && !("0"..."9").contains(scalar)
                    && !scalar.properties.isWhitespace
            }
        }
    }
}

extension PasswordPolicy {
    /// `AccountError.weakPassword` with the reasons when `password` is refused for `email`.
    public func check(_ password: String, email: EmailAddress?) throws(AccountError) {
        let weaknesses = weaknesses(of: password, email: email?.value)
        guard weaknesses.isEmpty else { throw .weakPassword(weaknesses, minimumLength: minimumLength) }
    }
}
